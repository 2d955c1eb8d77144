// The phone's pages of a live table: the join form (/t/<code>/join) and the player page
// (/t/<code>/seat). The player page shows only this seat's legal actions, as big buttons,
// and is re-drawn from every update of the table's event stream (live.js).
//
// Everything shown comes from the server's JSON and goes on the page with textContent (h()).

import {
  LiveTable, TapGuard, amountField, loadSeat, saveSeat, forgetSeat, h, eventWords, namedSettlement, seatNames, turnWords,
  keepScreenOn, beep, vibrate, newKey, setCardNamer,
  gameWords, capital, hasSabaccPot, handSizeWords, outOfGame, blockNames,
} from "./live.js";
import { offerBlocks, blockMoves, PANEL_MOVES, commandOf, arming } from "./moves.js";
import { tableFacts, seatFacts, ownFacts, renderFacts, seatFactsLine } from "./facts.js";
import { loadDeck, CardPool, CardPicker, cardName, codeNamer, pageDeckName } from "./cardpicker.js";
import { resultWords } from "./settlement.js";
import { showdown, finalStandings, standingPlaces } from "./showdown.js";
import { showFieldError, clearFieldErrors } from "./api.js";

const root = document.getElementById("play-root");
const code = root.dataset.code;
const $ = (id) => document.getElementById(id);

// Commands that get their own panel rather than a button in "Your move": the runtime's, and a
// building block's that the game uses (the kept cards', a tie's card: the view's blocks).
const PANELS = ["reveal", "show", "sit_out", "sit_in", "leave", "cash_out"];
const elsewhere = (state) => new Set([...PANELS, ...blockMoves(state.blocks, PANEL_MOVES)]);
// The moves "Your move" draws itself, and the building blocks' (a call step's call and pass, by
// the game's names: a plain button each); any other (a game's this page does not know) is drawn
// from its offer by moves.js. Each move's words, style and second tap are the server's
// (companion/table/offers.py: a move that cannot be taken back asks twice).
const KNOWN = [...PANELS, "buy_in", "check", "call", "bet", "raise", "all_in", "fold", "roll", "draw", "no_show"];
const known = (state) => new Set([...KNOWN, ...blockMoves(state.blocks)]);

// ---- join ------------------------------------------------------------------------------------

/**
 * The host moved a seat to this phone: the link (its QR code on the host's page) carries the
 * seat and its new token in the fragment, which never reaches the server or a log.
 */
async function takeOver() {
  const params = new URLSearchParams(window.location.hash.slice(1));
  const seat = params.get("seat");
  const token = params.get("token");
  if (!seat || !token) return false;
  history.replaceState(null, "", window.location.pathname); // the token leaves the address bar
  let data = null;
  try {
    const response = await fetch(`/api/v1/tables/${encodeURIComponent(code)}`, {
      headers: { Accept: "application/json", Authorization: `Bearer ${token}` },
    });
    data = response.ok ? await response.json() : null;
  } catch (err) {
    data = null;
  }
  if (!data || data.viewer.seat !== seat) {
    $("join-error").textContent = "That seat link is no longer valid: ask the host for a new one, or take a new seat.";
    return false;
  }
  const mine = data.state.seats.find((s) => s.seat === seat);
  saveSeat(code, { seat, token, name: mine ? mine.name : seat });
  window.location.replace(`/t/${encodeURIComponent(code)}/seat`);
  return true;
}

async function joinPage() {
  const form = $("join-form");
  if (await takeOver()) return;
  const mine = loadSeat(code);
  if (mine) {
    $("already").hidden = false;
    $("already-name").textContent = mine.name;
    form.hidden = true;
    return;
  }
  let key = newKey(); // one key per attempt: a double tap or a retry seats nobody twice
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    clearFieldErrors(form);
    $("join-error").textContent = "";
    const name = $("join-name").value.trim();
    if (!name) {
      showFieldError(form, "name", "Type the name the others know you by.");
      $("join-name").focus();
      return;
    }
    const button = $("join-button");
    button.disabled = true;
    let result;
    try {
      const response = await fetch(`/api/v1/tables/${encodeURIComponent(code)}/join`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ name, idempotency_key: key }),
      });
      result = { ok: response.ok, data: await response.json() };
    } catch (err) {
      result = { ok: false, data: { error: "The companion could not be reached. Check the Wi-Fi and try again.", field: null } };
    }
    button.disabled = false;
    if (result.ok) {
      saveSeat(code, { seat: result.data.seat, token: result.data.token, name });
      window.location.assign(`/t/${encodeURIComponent(code)}/seat`);
      return;
    }
    if (result.data && result.data.field !== undefined) key = newKey();
    const words = (result.data && result.data.error) || "The seat could not be taken.";
    if (!showFieldError(form, result.data && result.data.field, words)) $("join-error").textContent = words;
  });
}

// ---- the player page -----------------------------------------------------------------------

let live = null;
let deck = null;
let busy = false;
const log = [];
const pickers = { reveal: null, tie: null, kept: null };
let pickerHand = null; // the hand the reveal and tie pickers were made for
let tieDraw = 1; // the draw the tie picker was made for (tied again: the next)
let clash = null; // the words of a reveal clash this seat must enter again for

function seatPage() {
  const mine = loadSeat(code);
  if (!mine) {
    $("no-seat").hidden = false;
    $("conn").textContent = "";
    return;
  }
  $("seat-ui").hidden = false;
  $("my-name").textContent = mine.name;
  document.title = `${mine.name} at ${code} · Sabacc companion`;
  $("shift-ok").addEventListener("click", () => {
    $("shift").hidden = true;
    $("actions-title").focus(); // back to the moves, for a screen reader too
  });
  $("reveal-send").addEventListener("click", (e) => sendCards(e.currentTarget.dataset.type || "reveal", pickers.reveal, e.currentTarget));
  $("tie-card-send").addEventListener("click", (e) => sendTieCard(e.currentTarget));
  $("kept-add").addEventListener("click", (e) => addKept(e.currentTarget));
  keepScreenOn();
  // A game without cards to pick has no deck: its cards are said in its own words.
  if (pageDeckName()) loadDeck().then((d) => {
    deck = d;
    setCardNamer(codeNamer(d));
    actionsKey = null;
    if (live && live.state) render(live.state, []);
  });
  live = new LiveTable(code, {
    token: mine.token,
    onState: render,
    onStatus(status, words) {
      $("conn").textContent = words;
      $("conn").dataset.status = status;
      if (status === "refused") {
        forgetSeat(code);
        $("seat-ui").hidden = true;
        $("no-seat").hidden = false;
        $("no-seat-why").textContent = "This phone's seat was moved to another phone by the host (or the table was reset). Join again, or ask the host.";
      }
    },
  });
  live.start().then(async () => {
    // After a reload the list of last actions starts from the audit log, not empty.
    const names = () => seatNames(live.state);
    const earlier = (await live.recentEvents(12)).map((ev) => eventWords(ev, names())).filter(Boolean);
    if (!log.length) {
      log.push(...earlier.reverse());
      log.splice(12);
      $("log").replaceChildren(...log.map((w) => h("li", {}, w)));
    }
  });
}

function legalOf(state, type) {
  return ((state.you && state.you.legal) || []).filter((l) => l.type === type);
}

function myPlayer(state) {
  const hand = state.hand;
  return hand ? hand.players.find((p) => p.seat === live.seat) : null;
}

function cardWords(code) {
  return deck ? cardName(deck, code) : code;
}

function render(state, events) {
  const names = seatNames(state);
  const me = state.seats.find((s) => s.seat === live.seat);
  const hand = state.hand;
  const mine = myPlayer(state);

  $("my-stack").textContent = me ? String(me.stack) : "–";
  $("hand-pot").textContent = hand && hand.stage !== "settled" ? String(hand.hand_pot) : "0";
  $("sabacc-pot").textContent = String(state.sabacc_pot);
  $("sabacc-pot-box").hidden = !hasSabaccPot(state);
  const contested = hand && hand.stage !== "settled" ? (hand.pots || []).filter((p) => p.eligible.length > 1) : [];
  $("side-pots").textContent = contested.length > 1
    ? `Main pot ${contested[0].amount}; ${contested.slice(1).map((p, i) => `side pot ${i + 1}: ${p.amount} (${p.eligible.map((s) => names.get(s)).join(", ")})`).join("; ")}`
    : "";
  const turn = turnWords(state, names, live.seat);
  // Rounds are said where the game's rules say how a hand ends (`ending`): a hand of one round has none.
  const ending = state.rules.ending;
  const rounds = ending && ending.rounds;
  const lead = hand && hand.stage === "play" ? `Hand ${hand.no}${ending ? `, round ${hand.round}${rounds ? ` of ${rounds}` : ""}` : ""}. ` : "";
  $("turn").textContent = lead + turn;
  renderFacts($("table-facts"), tableFacts(state));
  renderFacts($("my-facts"), ownFacts(state));
  $("turn").classList.toggle("is-mine", turn.startsWith("You"));

  for (const ev of events) {
    const words = eventWords(ev, names);
    if (words) log.unshift(words);
    if (ev.type === "shift") announceShift(ev, names, state);
    if (ev.type === "reveal_conflict" || ev.type === blockNames("tie").conflict) {
      // A clash is explained where the cards are entered, not only in the log.
      clash = ev.seats && ev.seats.includes(live.seat) ? words : null;
    }
  }
  log.splice(12);
  $("log").replaceChildren(...log.map((w) => h("li", {}, w)));

  renderActions(state);
  renderBuyIn(state);
  renderWhyOut(state, me, mine);
  renderDeal(state, names);
  renderKept(state, mine);
  renderReveal(state, mine);
  renderResult(state, names);
  renderFinal(state);
  renderSeats(state, names);
  renderSeatActions(state);
  fitMoves();
}

/** Issue 28 item 14: on a small phone the moves panel sticks to the bottom of the screen
 * (issue 18), but never over the turn line or the dealer's note: it is at most as tall as the
 * room below what comes before it on the page, and scrolls inside itself; never less than 40 %
 * of the screen, which a long note above may then give way to. */
function fitMoves() {
  const panel = $("actions-panel");
  if (!panel || !panel.classList.contains("has-moves")) return; // the join page has none
  let above = 0;
  for (let e = panel.previousElementSibling; e; e = e.previousElementSibling) {
    if (e.offsetParent !== null || getComputedStyle(e).position === "fixed") {
      above = Math.max(above, e.getBoundingClientRect().bottom + window.scrollY);
    }
  }
  const margin = parseFloat(getComputedStyle(panel).marginTop) || 0;
  const room = Math.max(window.innerHeight * 0.4, window.innerHeight - above - margin);
  panel.style.setProperty("--moves-room", `${Math.floor(room)}px`);
}
window.addEventListener("resize", fitMoves);


function announceShift(ev, names, state) {
  const mine = ev.instructions && ev.instructions[live.seat];
  const player = myPlayer(state);
  $("shift-kind").textContent = ev.announcement; // the engine's one wording of it
  $("shift-mine").textContent = mine ? mine
    : player && player.folded ? `You ${gameWords().folded} this hand: nothing to do.`
    : "You are not in this hand: nothing to do.";
  $("shift").hidden = false;
  const flash = $("flash");
  flash.classList.remove("on");
  void flash.offsetWidth; // restart the animation
  flash.classList.add("on");
  beep();
  vibrate([200, 100, 200, 100, 400]);
}

// ---- "Your move" ---------------------------------------------------------------------------
//
// The panel is rebuilt only when this seat's legal moves change, never because someone else
// acted: a typed amount and the focus stay where they are, and what is sent is what was typed.
// A button that appears where the finger just was must not take a tap meant for the old one:
// after any tap and after any rebuild the panel ignores taps for a moment (TapGuard).

// Moves that make it this player's move ("Your move" lights up); a fold out of turn does not.
// A call step's pass (the call block's) is one too.
const MY_MOVE = ["check", "call", "bet", "raise", "roll", "draw"];
const tapGuard = new TapGuard(() => [$("actions-panel"), $("buyin-panel")]);
let actionsKey = null;
const typed = new Map(); // amount form -> the text typed in it (kept across rebuilds)

let discardRoot = null;
let discardPicker = null;

/** The card picker for the card a move discards onto the face-up discard pile (made once). */
function discardBlock(words = "The card you discard") {
  if (!discardRoot) {
    const root = h("div", { id: "discard-picker" });
    discardRoot = h("div", { class: "discard-entry" },
      h("p", { class: "label" }, `${words} (face up on the discard pile):`), root);
    discardPicker = new CardPicker(root, { deck, max: 1, label: words });
  } else {
    // Detached while a move was sent (which disables the moves' buttons): enable it again.
    for (const b of discardRoot.querySelectorAll("button")) b.disabled = false;
    discardPicker.refresh();
  }
  return discardRoot;
}

/** A discarding move with its card, or null (and a word why) when none is picked. */
function withDiscard(entry) {
  const card = discardPicker && discardPicker.cards[0];
  if (!card) {
    $("actions-error").textContent = "Pick the card you discard first.";
    if (discardRoot) discardRoot.scrollIntoView({ block: "nearest" }); // below the moves
    return null;
  }
  return { ...entry, card };
}

function actionButton(label, entry, { primary = false, danger = false, key = null, quiet = false, fill = null, confirm = false } = {}) {
  const id = key || entry.type;
  const button = h("button", {
    type: "button",
    class: `button ${quiet ? "small quiet" : "big"}${primary ? " primary" : ""}${danger ? " danger" : ""}`,
    dataset: { action: entry.type, key: id },
  }, label);
  if (confirm) arming.show(id, button, label); // still armed when drawn again between the taps
  button.addEventListener("click", async (event) => {
    if (tapGuard.ignores(event, busy)) return; // a double tap, or a tap meant for the button before
    if (confirm && !arming.isArmed(id)) {
      arming.arm(id, button, label);
      tapGuard.arm(); // the second tap is a deliberate one, not the bounce of the first
      return;
    }
    arming.clear();
    const body = fill ? fill(entry) : entry;
    if (!body) return;
    const result = await send(body, button);
    if (result && result.ok && fill && discardPicker) discardPicker.setCards([]);
    if (result && !result.ok && button.isConnected) {
      // Refused (a fold the table no longer allows): the button is itself again, one tap arms it.
      button.textContent = label;
      button.classList.remove("armed");
    }
  });
  return button;
}

async function send(entry, control) {
  busy = true;
  // Acting is reading the shift: the player's next move counts as "Done" (no extra tap).
  $("shift").hidden = true;
  tapGuard.arm();
  for (const b of document.querySelectorAll("#actions button, #seat-actions button, #buyin button")) b.disabled = true;
  const result = await live.send(entry, control);
  busy = false;
  tapGuard.arm();
  for (const b of document.querySelectorAll("#actions button, #seat-actions button, #buyin button")) b.disabled = false;
  return result;
}

function amountForm(label, type, field, lo, hi, verb) {
  return amountField({
    id: `amount-${type}`, label, lo, hi, verb, kept: typed,
    guard: (e) => tapGuard.ignores(e, busy),
    onSend: async (n, button) => (await send({ type, [field]: n }, button)).ok,
  });
}

/** Whether the table waits for this seat (not merely: it could fold). A move of a game this
 * page does not know counts as one. */
function isMyMove(state) {
  const mine = new Set([...MY_MOVE, ...blockMoves(state.blocks, { call: ["pass"] })]);
  const knows = known(state);
  return ((state.you && state.you.legal) || []).some((l) => mine.has(l.type) || !knows.has(l.type));
}

/** An offer's button options: its style and its second tap (the server's). */
function styled(l, more = {}) {
  return { primary: l.style === "primary", danger: l.style === "danger", quiet: l.style === "quiet", confirm: Boolean(l.confirm), ...more };
}

/** An amount offer's buttons (its usual amounts, in its words) and, where they leave amounts
 * out, a number field within its range. */
function amountMoves(l, into) {
  const input = l.inputs[0];
  const shortcuts = input.shortcuts || []; // a game may offer no usual amounts: the field alone
  const row = shortcuts.map(([n, words]) =>
    actionButton(words, { type: l.type, [input.field]: n }, { key: `${l.type}-${n}` }));
  if (row.length) into.push(h("div", { class: "shortcut-row", role: "group", "aria-label": l.words }, row));
  if (shortcuts.length < input.max - input.min + 1) {
    into.push(amountForm(input.words, l.type, input.field, input.min, input.max, l.words));
  }
}

function renderActions(state) {
  const all = (state.you && state.you.legal) || [];
  const aside = elsewhere(state);
  const legal = all.filter((l) => !aside.has(l.type) && l.type !== "buy_in");
  const blocks = blockMoves(state.blocks); // a building block's move without inputs: a plain button
  const me = state.seats.find((s) => s.seat === live.seat);
  const stack = me ? me.stack : 0;
  const mine = isMyMove(state);
  const player = myPlayer(state);
  const due = new Set(all.map((l) => l.type));
  const tieMove = blockNames("tie").move; // the tie's card is entered in its own panel
  const idle = due.has("reveal") ? "Enter your hand below, under “The reveal: your hand”."
    : due.has("show") ? "Show your hand below, under “The reveal: your hand”, or keep it hidden."
    : due.has(tieMove) && blockNames("tie").draws
      ? (legalOf(state, tieMove)[0].draw > 1 ? `Tied again: draw another card and enter it below, under “${capital(gameWords().tie)}”.`
        : `Enter the card you drew below, under “${capital(gameWords().tie)}”.`)
    : due.has(tieMove) ? `Enter your new card below, under “${capital(gameWords().tie)}”.`
    : "Nothing for you to do right now.";
  // Rebuilt only when the moves themselves change (or an armed button runs out).
  const key = JSON.stringify([legal, stack, mine, idle, Boolean(player && player.all_in)]);
  $("actions-panel").classList.toggle("has-moves", mine);
  $("actions-title").textContent = mine ? "Your move" : "Moves";
  if (key === actionsKey) return;
  actionsKey = key;
  const box = $("actions");
  const out = [];
  const quiet = [];
  // The moves come first, then the amounts to bet or raise and the card a move discards: on a
  // small phone "Call 3", "Fold" and the turn actions are in view without scrolling (issue 28).
  const later = [];
  const others = []; // moves of a game this page does not know: drawn from their offers
  for (const l of legal) {
    switch (l.type) {
      case "check": case "call": case "all_in": case "roll": case "no_show":
        out.push(actionButton(l.words, { type: l.type }, styled(l)));
        break;
      case "bet": case "raise": amountMoves(l, later); break;
      case "fold":
        // All-in with nothing left: folding only gives the pot away. Out of turn: quietly.
        if (player && player.all_in && stack === 0) break;
        if (mine) out.push(actionButton(l.words, { type: "fold" }, styled(l)));
        else quiet.push(actionButton(l.words, { type: "fold" }, styled(l, { quiet: true })));
        break;
      case "draw": {
        // A move that discards where the discard pile lies face up: the card is entered too.
        if (l.card && deck && !later.includes(discardBlock(l.inputs[0].words))) later.push(discardBlock());
        out.push(actionButton(l.words, { type: "draw", action: l.action },
          styled(l, { key: `draw-${l.action}`, fill: l.card ? withDiscard : null })));
        break;
      }
      default:
        if (blocks.has(l.type) && !(l.inputs || []).length) out.push(actionButton(l.words, commandOf(l), styled(l)));
        else others.push(l);
        break;
    }
  }
  out.push(...offerBlocks(others, {
    send: async (body, control) => (await send(body, control)).ok, deck,
    guard: (e) => tapGuard.ignores(e, busy), idPrefix: "amount-", kept: typed,
  }));
  const focused = document.activeElement && box.contains(document.activeElement) ? document.activeElement.dataset.key : null;
  // A turn's actions (when more than two) two to a row, so that all of them fit a small phone's screen.
  box.classList.toggle("turn-actions", out.filter((b) => b.dataset && b.dataset.action === "draw").length > 2);
  out.push(...later);
  const children = out.length ? out : [h("p", { class: "muted nothing" }, idle)];
  if (quiet.length) {
    children.push(h("div", { class: "quiet-moves" }, h("span", { class: "muted" }, "Out of turn: "), quiet));
  }
  box.replaceChildren(...children);
  tapGuard.rebuilt();
  if (focused) {
    const again = box.querySelector(`[data-key="${CSS.escape(focused)}"]`) || box.querySelector("button");
    if (again) again.focus();
  }
}

let buyInKey = null;

function renderBuyIn(state) {
  const legal = legalOf(state, "buy_in")[0];
  $("buyin-panel").hidden = !legal;
  const key = JSON.stringify(legal || null);
  if (key === buyInKey) return;
  buyInKey = key;
  if (!legal) { $("buyin").replaceChildren(); return; }
  const focused = document.activeElement && $("buyin").contains(document.activeElement) ? document.activeElement.dataset.key : null;
  const out = [];
  // A fixed buy-in is one button; a free one its usual amounts and a typed one (the server's).
  if (legal.inputs.length) amountMoves(legal, out);
  else out.push(actionButton(legal.words, { type: "buy_in" }, styled(legal)));
  $("buyin").replaceChildren(...out);
  tapGuard.arm();
  if (focused) {
    const again = $("buyin").querySelector(`[data-key="${CSS.escape(focused)}"]`);
    if (again) again.focus();
  }
}

// ---- cards face up, the reveal, a tie ---------------------------------------------------------

function cardItem(code, removable) {
  const li = h("li", { class: "card-item" }, h("span", { class: "card-name" }, cardWords(code)));
  if (removable) {
    const b = h("button", { type: "button", class: "button small", dataset: { action: removable.type } },
      removable.words);
    b.setAttribute("aria-label", `${removable.words}: ${cardWords(code)}`);
    b.addEventListener("click", () => send(commandOf(removable, { card: code }), b));
    li.append(b);
  }
  return li;
}

/** The names the table's game gives its kept cards (the view's blocks.kept: their field on a
 * seat of the hand, the moves putting one face up and taking one back, their words); {} where
 * its players keep none. */
function keptNames(state) {
  return (state.blocks || {}).kept || {};
}

let keptAdding = null; // the offer putting a card face up, while there is one

function renderKept(state, mine) {
  // Shown where the player keeps cards face up, or may put one there or take one back now (the
  // server's offers): a game without such cards has neither.
  const names = keptNames(state);
  const cards = mine && names.field ? mine[names.field] || [] : [];
  const canRemove = (names.remove && legalOf(state, names.remove)[0]) || null;
  const adding = (names.add && legalOf(state, names.add)[0]) || null;
  keptAdding = adding;
  const shown = Boolean(cards.length || canRemove || adding);
  $("kept-panel").hidden = !shown;
  if (!shown) return;
  $("kept-title").textContent = `My ${names.words}`;
  $("my-kept").replaceChildren(...(cards.length
    ? cards.map((c) => cardItem(c, canRemove))
    : [h("li", { class: "muted" }, "Empty.")]));
  const canAdd = adding && deck;
  $("kept-add-wrap").hidden = !canAdd;
  if (adding) $("kept-add").textContent = adding.words;
  if (canAdd && !pickers.kept) {
    pickers.kept = new CardPicker($("kept-picker"), { deck, max: 1, label: adding.inputs[0].words });
  }
  if (pickers.kept && state.hand) {
    pickers.kept.pool.setReserved(state.hand.players.filter((p) => !p.folded).flatMap((p) => p[names.field] || []));
  }
}

async function addKept(button) {
  const card = pickers.kept && pickers.kept.cards[0];
  if (!card) {
    $("kept-panel").querySelector(".field-error").textContent = "Pick the card first.";
    return;
  }
  if (!keptAdding) return; // no longer offered: the next update hides the button
  const result = await send(commandOf(keptAdding, { card }), button);
  if (result.ok) pickers.kept.clear();
}

function renderReveal(state, mine) {
  const hand = state.hand;
  // The last player's show (everyone else folded) is entered as a reveal is.
  const reveal = legalOf(state, "reveal")[0] || legalOf(state, "show")[0];
  // A tie broken by drawn cards, by the names its game gives it (blockNames): its move's card
  // is entered here, and where the cards add up (`draws`), each draw in a new, empty entry.
  const names = blockNames("tie");
  const tie = names.move ? legalOf(state, names.move)[0] : undefined;
  const handKey = hand ? `${hand.no}` : null;
  if (handKey !== pickerHand) {
    for (const k of ["reveal", "tie"]) if (pickers[k]) { pickers[k].destroy(); pickers[k] = null; }
    pickerHand = handKey;
    clash = null;
  }
  $("reveal-panel").hidden = !reveal || !deck;
  const keptField = keptNames(state).field;
  const othersKept = hand && keptField
    ? hand.players.filter((p) => p.seat !== live.seat && !p.folded).flatMap((p) => p[keptField] || []) : [];
  // The cards of the hand already in (laid face up): the offer's cards input says which.
  const inAlready = (reveal && reveal.inputs && reveal.inputs[0] && reveal.inputs[0].locked) || [];
  if (reveal && deck) {
    const saved = `sabacc.reveal.${code}.${handKey}`;
    if (!pickers.reveal) {
      const pool = new CardPool(deck);
      pool.setReserved(othersKept); // laid face up by the others: not in this hand
      let kept = null;
      try { kept = JSON.parse(sessionStorage.getItem(saved) || "null"); } catch (err) { kept = null; }
      // After a reload the cards picked but not sent are still there.
      const yours = state.you.cards || (kept && kept.length ? kept : inAlready);
      pickers.reveal = new CardPicker($("reveal-picker"), {
        deck, pool, max: reveal.hand_size, label: "Your hand", cards: yours, locked: inAlready,
        lockedWords: `your ${keptNames(state).words}`,
        onChange: (cards) => {
          try { sessionStorage.setItem(saved, JSON.stringify(cards)); } catch (err) { /* private mode */ }
          countCards(reveal.hand_size);
        },
      });
    } else {
      pickers.reveal.pool.reserved = othersKept;
    }
    $("reveal-hint").textContent = clash ? `${clash}`
      : mine && mine.entered
      ? "Your cards are in; you can still change them until everyone has entered theirs."
      : reveal.type === "show"
      ? `Everyone else is out: show your ${reveal.hand_size} cards for the sabacc pot, or keep them hidden (Moves).`
      : `Enter all ${reveal.hand_size} cards of your hand.${inAlready.length ? ` Your ${keptNames(state).words} is already in.` : ""}`;
    $("reveal-hint").classList.toggle("clash", Boolean(clash));
    $("reveal-send").textContent = mine && mine.entered ? "Change my hand" : reveal.words;
    $("reveal-send").dataset.type = reveal.type;
    countCards(reveal.hand_size);
  }
  $("tie-card-panel").hidden = !tie || !deck;
  const blind = Boolean(names.draws);
  $("tie-card-title").textContent = capital(gameWords().tie);
  // A tie drawn again asks for the next draw: a new, empty entry for its card.
  const draw = tie && tie.draw ? tie.draw : 1;
  if (tie && pickers.tie && draw !== tieDraw) { pickers.tie.destroy(); pickers.tie = null; }
  tieDraw = draw;
  if (tie && !clash) {
    $("tie-card-hint").textContent = !blind ? "The dealer deals you one more card. Enter it:"
      : draw > 1 ? `Tied again (you drew ${tie.drawn.map(cardWords).join(", then ")}): draw another card from the draw pile. Enter it:`
      : "Draw a card from the draw pile. Enter it:";
  }
  if (tie && clash) $("tie-card-hint").textContent = clash;
  if (tie) $("tie-card-send").textContent = tie.words;
  if (tie && deck && !pickers.tie) {
    pickers.tie = new CardPicker($("tie-card-picker"), { deck, max: 1, label: tie.inputs[0].words });
  }
  if (hand && names.stage && hand.stage === names.stage && !tie && (hand[names.players] || []).includes(live.seat)) {
    $("tie-card-panel").hidden = true;
  }
}

function countCards(size) {
  const n = pickers.reveal ? pickers.reveal.cards.length : 0;
  $("reveal-count").textContent = `${n} of ${size} cards.`;
  $("reveal-send").disabled = n !== size;
}

async function sendCards(type, picker, button) {
  if (!picker) return;
  await send({ type, cards: picker.cards }, button);
}

async function sendTieCard(button) {
  const card = pickers.tie && pickers.tie.cards[0];
  if (!card) {
    $("tie-card-panel").querySelector(".field-error").textContent = "Pick the card the dealer gave you first.";
    return;
  }
  await send({ type: blockNames("tie").move, card }, button);
}

// ---- result, the table, my seat ---------------------------------------------------------------

function renderResult(state, names) {
  const hand = state.hand;
  // Once the session is over, the final standings take the last result's place.
  const settled = hand && hand.stage === "settled" && hand.settlement && !state.ended;
  $("result-panel").hidden = !settled;
  if (!settled) return;
  let words;
  try {
    words = resultWords(hand.settlement, names, namedSettlement);
  } catch (err) {
    words = "The hand is settled: see the stacks below.";
  }
  $("result-words").textContent = words;
  // Every revealed hand: cards, total, kind, who won which pot, the penalties.
  $("result-hands").replaceChildren(showdown(hand.settlement, hand.players, names, cardWords, { caption: `Hand ${hand.no}: the hands` }));
  const payout = hand.settlement.payouts ? hand.settlement.payouts[live.seat] : undefined;
  const net = hand.settlement.net ? hand.settlement.net[live.seat] : undefined;
  const me = state.seats.find((s) => s.seat === live.seat);
  // What the player gained or lost (net), with what was paid out beside it: a payout of 1576
  // after putting in 280 is a gain of 1296.
  const signed = (n) => `${n > 0 ? "+" : n < 0 ? "−" : ""}${Math.abs(n)}`;
  $("result-mine").textContent = !me ? ""
    : net !== undefined ? `Your stack is now ${me.stack}: ${signed(net)} this hand${payout ? ` (paid out ${payout})` : ""}.`
    : `Your stack is now ${me.stack}.`;
}

/** The cash-out: this player's final standing, net for the evening and the chips to hand back. */
function renderFinal(state) {
  const rows = state.ended ? state.standings || [] : [];
  $("final-panel").hidden = !rows.length;
  if (!rows.length) return;
  const i = rows.findIndex((r) => r.seat === live.seat);
  const r = rows[i];
  const signed = (v) => `${v > 0 ? "+" : v < 0 ? "−" : ""}${Math.abs(v)}`;
  // The game's own place where it gave one (shared by players out together), else the row's.
  const mine = i < 0 ? null : standingPlaces(rows)[i];
  const finish = !mine ? "" : mine.place === null ? "You joined after the game began"
    : `You ${mine.shared ? "share place" : "finish"} ${mine.place} of ${rows.length}`;
  $("final-mine").textContent = r
    ? `${finish}: ${signed(r.net)} for the evening. Hand back ${r.stack} credits: ${r.chips.words}.`
      + (r.sabacc_share ? ` (${r.sabacc_share} of them are your share of the sabacc pot.)` : "")
    : "";
  $("final-table").replaceChildren(finalStandings(rows, "Final standings", hasSabaccPot(state)));
}

/** Why this seat is not in the running hand (joined late, cannot pay the ante, sitting out). */
function renderWhyOut(state, me, mine) {
  const hand = state.hand && state.hand.stage !== "settled" ? state.hand : null;
  let words = "";
  // The next hand's antes, worked out by the table (an empty stack never plays either).
  const ante = Math.max(state.ante_due, 1);
  if (me && hand && !mine) {
    // Seats are numbered in the order people sat down: a number above every dealt-in seat's
    // sat down after the deal.
    const num = (seat) => Number(String(seat).replace(/\D/g, "")) || 0;
    const late = num(me.seat) > Math.max(...hand.players.map((p) => num(p.seat)));
    words = me.sitting_out ? "You are sitting out: you are not dealt in. Sit in again below to play the next hand."
      : late ? `You are not in hand ${hand.no}: you sat down after it was dealt. ${me.stack < ante ? "Buy in between hands to play the next one." : "You play from the next hand."}`
      : me.stack < ante ? `You are not in hand ${hand.no}: your stack (${me.stack}) cannot pay the ante. Buy in between hands to play.`
      : `You are not in hand ${hand.no}: you play from the next hand.`;
  } else if (me && !hand && !state.ended) {
    if (me.sitting_out) words = "You are sitting out: the next hand is dealt without you.";
    else if (me.stack < ante) words = `Your stack (${me.stack}) cannot pay the ante of the next hand: buy in to play.`;
  } else if (mine && mine.folded && hand) {
    words = `You ${gameWords().folded} this hand: you are out until the next one.`;
  }
  $("why-out").textContent = words;
  $("why-out").hidden = !words;
}

/** What the dealer deals now, on the dealer's phone (the display shows it to everyone). */
function renderDeal(state, names) {
  const hand = state.hand && state.hand.stage !== "settled" ? state.hand : null;
  const jobs = hand && hand.deal ? hand.deal : [];
  const dealer = hand && (hand.dealer === live.seat);
  $("deal").hidden = !(dealer && jobs.length);
  if (dealer && jobs.length) $("deal-words").textContent = jobs.map((j) => j.words).join(" · ");
}

function renderSeats(state, names) {
  const hand = state.hand && state.hand.stage !== "settled" ? state.hand : null;
  const items = state.seats.map((s) => {
    const out = outOfGame(state, s.seat);
    const p = hand && !out ? hand.players.find((q) => q.seat === s.seat) : null;
    const tags = [];
    if (s.seat === live.seat) tags.push("you");
    if (state.dealer === s.seat) tags.push("dealer");
    const moving = hand && (hand.to_act === s.seat || (!hand.to_act && (hand.do === "roll" ? hand.roller : hand.turn) === s.seat));
    if (moving) tags.push("to move");
    if (p && p.folded) tags.push(gameWords().folded);
    else if (p && p.all_in) tags.push("all-in");
    if (s.sitting_out) tags.push("sitting out");
    if (out) tags.push("out");
    const facts = [`stack ${s.stack}`];
    if (p) facts.push(`in the pot ${p.committed}`, handSizeWords(p));
    const li = h("li", { class: `seat${s.seat === live.seat ? " is-me" : ""}${moving ? " is-moving" : ""}`, dataset: { seat: s.seat } },
      h("span", { class: "seat-name" }, s.name),
      tags.map((t) => h("span", { class: "tag" }, t)),
      h("span", { class: "seat-facts" }, facts.filter(Boolean).join(" · ")),
      seatFactsLine(seatFacts(state, s.seat)));
    return li;
  });
  $("seats").replaceChildren(...items);
}

function renderSeatActions(state) {
  const box = $("seat-actions");
  const out = [];
  const asking = []; // a session move that asks for something as it goes (cards held): drawn from its inputs
  for (const l of (state.you && state.you.legal) || []) {
    if (!["sit_out", "sit_in", "cash_out", "leave"].includes(l.type)) continue;
    if (l.inputs && l.inputs.length) asking.push(l);
    else out.push(actionButton(l.words, { type: l.type }, styled(l)));
  }
  for (const b of out) b.classList.remove("big");
  out.push(...offerBlocks(asking, {
    send: async (body, control) => (await send(body, control)).ok, deck,
    guard: (e) => tapGuard.ignores(e, busy), idPrefix: "seat-",
  }));
  box.replaceChildren(...(out.length ? out : [h("p", { class: "muted" }, "Nothing to change during a hand.")]));
}

// Last: the module's state above is initialised by now.
if (root.dataset.page === "join") joinPage();
else seatPage();
