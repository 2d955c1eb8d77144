// The live table in the browser: state, event stream, commands. Shared by the player page,
// the table display and the host's pages.
//
//   import { LiveTable, loadSeat, saveSeat, forgetSeat, h, eventWords, seatNames } from "/static/js/live.js";
//
//   const live = new LiveTable("KMXTR", {
//     token,                               // a seat or host token; null: a spectator
//     onState(state, events, live) {},     // every change: your fresh view and the events that
//                                          // made it ([] for a first load or a snapshot)
//     onStatus(status, words) {},          // "connecting" | "live" | "reconnecting" | "refused"
//                                          // (the token is not valid here) | "missing" (no table)
//   });
//   live.start();                          // GET the state, then the event stream; it reconnects
//                                          // by itself, resuming with Last-Event-ID
//   const res = await live.send({ type: "bet", amount: 3 }, button);
//     // POSTs the command with the version this page shows and a fresh idempotency key (a
//     // network failure is retried with the same key, so nothing happens twice). A refusal is
//     // shown in words next to `button` (the `.field-error` inside its closest
//     // `[data-error-slot]`, else a slot made right after it) and
    // res = {ok: false, status, data, words} (words: the refusal as shown).
//   live.state  live.version  live.seat  live.close()
//   await live.recentEvents(20) -> the events of the last 20 ledger entries, oldest first (from
//     the audit log; for a "last actions" list after a reload; [] if it cannot be read)
//
//   loadSeat(code) -> {seat, token, name} | null    the seat this phone holds (localStorage)
//   saveSeat(code, {seat, token, name})  forgetSeat(code)
//   h("button", {class: "button", onclick: fn}, "text", child...)   DOM without HTML parsing:
//     strings become text nodes, so a name like <script> shows as typed.
//   seatNames(state) -> Map(seat id -> name);  eventWords(event, names) -> words or null
//   turnWords(state, names, mySeat) -> the server's turn line for this viewer (hand.words)
//   showError(control, words) / clearError(control);  keepScreenOn();  vibrate(pattern)
//   beep() -> false until the page has had a tap (browsers allow sound only after one);
//   soundReady() says whether it has.
//
// Each change also sets document.body.dataset.version to the version shown (tests wait on it).

import { describeSettlement, handWords, setKindWords, setGameWordsOf, gameWords, capital } from "./settlement.js";

const STORE_PREFIX = "sabacc.seat.";
const RETRY_MS = [1000, 2000, 4000, 8000];

/** The seat this phone holds at table `code`, or null. */
export function loadSeat(code) {
  try {
    const raw = localStorage.getItem(STORE_PREFIX + code.toUpperCase());
    const seat = raw ? JSON.parse(raw) : null;
    return seat && typeof seat.token === "string" ? seat : null;
  } catch (err) {
    return null;
  }
}

/** Remember the seat (and its secret token) on this phone. */
export function saveSeat(code, seat) {
  localStorage.setItem(STORE_PREFIX + code.toUpperCase(), JSON.stringify(seat));
}

/** Forget this phone's seat at `code` (e.g. the host moved it to another phone). */
export function forgetSeat(code) {
  localStorage.removeItem(STORE_PREFIX + code.toUpperCase());
}

/** A random idempotency key. crypto.randomUUID needs https; getRandomValues does not. */
export function newKey() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Make an element. `attrs`: attributes, except `class`, `text`, `dataset` ({...}) and `on<event>`
 * (listeners). Children: nodes, or strings (as text nodes), null/false skipped.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "text") el.textContent = v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

function errorSlot(control) {
  const wrap = control && control.closest("[data-error-slot]");
  let slot = wrap && wrap.querySelector(".field-error");
  if (!slot && control) {
    slot = control.nextElementSibling && control.nextElementSibling.classList.contains("field-error")
      ? control.nextElementSibling
      : null;
    if (!slot) {
      slot = h("p", { class: "field-error", "aria-live": "assertive" });
      control.after(slot);
    }
  }
  return slot;
}

/** Show `words` next to `control` (or in its [data-error-slot]). */
export function showError(control, words) {
  const slot = errorSlot(control);
  if (slot) slot.textContent = words;
}

/** Remove the error shown next to `control`. */
export function clearError(control) {
  const slot = errorSlot(control);
  if (slot) slot.textContent = "";
}

/** Whether the table's second pot has anything to show: it has held credits this session
 * (now, carried in, or after any hand). A game that never uses it shows no "0" for it. */
export function hasSabaccPot(state) {
  return Boolean(state && (state.sabacc_pot || state.carried_sabacc_pot
    || (state.stack_history || []).some((x) => x.sabacc_pot)));
}

/** Whether `seat` is out of a game played to a winner (the hand view's `out`: eliminated, or
 * gone): the seat lists mark it "out" and show nothing of a hand it no longer plays. */
export function outOfGame(state, seat) {
  return Boolean(state && state.hand && (state.hand.out || []).includes(seat));
}

/** How many cards a player holds, in words ("1 card", "3 cards"), or "" where the game's view
 * does not count them. */
export function handSizeWords(p) {
  return typeof p.hand_size === "number" ? `${p.hand_size} ${p.hand_size === 1 ? "card" : "cards"}` : "";
}

/** Every seat's name by seat id, departed players too. */
export function seatNames(state) {
  const names = new Map();
  for (const d of (state && state.departed) || []) names.set(d.seat, d.name);
  for (const s of (state && state.seats) || []) names.set(s.seat, s.name);
  return names;
}

let turnActions = new Map(); // action -> {button, done, primary}: the game's words, from the view

/** The words of a turn action of the game in play ({button, done}), from the server's rules. */
export function actionWords(action) {
  return turnActions.get(action) || { button: action, done: action, primary: false };
}

let diceFaces = []; // face n's symbol is diceFaces[n - 1] (none: the number is shown)
let diceName = "the scrambler"; // what rolls, in the game's words (rules.dice.name)

/** A roll in the table's words: "4 and 2", or its dice's symbols (rules.dice.faces). */
export function diceWords(dice) {
  return (dice || []).map((d) => diceFaces[d - 1] || String(d)).join(" and ");
}

export { gameWords, capital };

let blocks = {}; // the names the table's game gives the runtime's building blocks (the view's blocks)

/** The names the table's game gives a building block's parts (the view's `blocks`): its state,
 * moves and events, e.g. blockNames("tie").stage; {} where the game does not use the block. */
export function blockNames(block) {
  return blocks[block] || {};
}

/** Take the game's words from a view's rules: its kinds of hand, turn actions and dice. */
function setGameWords(rules) {
  setKindWords(rules.kind_words, rules.pot_words, rules.kind_marks);
  if (rules.actions) turnActions = new Map(rules.actions.map((a) => [a.action, a]));
  if (rules.dice) diceFaces = rules.dice.faces || [];
  if (rules.dice && rules.dice.name) diceName = rules.dice.name;
  setGameWordsOf(rules.words);
}

/** One event in words for the "last actions" list, or null for bookkeeping events. */
/** A table's settlement with seat ids replaced by names: the engine settles by seat id, and
 * the result's words (settlement.js) name players. */
export function namedSettlement(settlement, names) {
  const n = (s) => names.get(s) || s;
  return {
    ...settlement,
    hands: settlement.hands.map((x) => ({ ...x, name: n(x.name) })),
    pots: settlement.pots.map((p) => ({ ...p, eligible: p.eligible.map(n), winners: p.winners.map(n) })),
    payouts: Object.fromEntries(Object.entries(settlement.payouts).map(([k, v]) => [n(k), v])),
    penalties: settlement.penalties.map((x) => ({ ...x, name: n(x.name) })),
    sabacc_pot_winners: (settlement.sabacc_pot_winners || []).map(n),
  };
}

export function eventWords(ev, names) {
  const who = (seat) => (seat ? names.get(seat) || seat : capital(diceName));
  const w = gameWords();
  // A tie broken by drawn cards, by the names the game gives it (blockNames): where its cards add
  // up, the engine's words say who draws and the cards that tied again; else the game's words.
  const tie = blockNames("tie");
  if (ev.type === tie.started) return tie.draws ? (ev.message ? nameCards(ev.message) : null) : `${capital(w.tie)}: ${w.tie_started}`;
  if (ev.type === tie.conflict) return ev.message ? nameCards(ev.message) : "Two hands hold the same card: enter again";
  switch (ev.type) {
    case "joined": return `${who(ev.seat)} sits down`;
    case "bought_in": return `${who(ev.seat)} buys in for ${ev.amount}`;
    case "cashed_out": return `${who(ev.seat)} cashes out ${ev.amount}`;
    case "left": return `${ev.name || who(ev.seat)} leaves the table`;
    case "sat_out": return `${who(ev.seat)} sits out`;
    case "sat_in": return `${who(ev.seat)} sits in`;
    case "adjusted": return `The host adjusts ${who(ev.seat)} by ${ev.amount > 0 ? "+" : ""}${ev.amount}: ${ev.reason}`;
    case "staked": return `${who(ev.seat)} stakes ${ev.item} for ${ev.value}`;
    case "hand_started": return `Hand ${ev.hand} starts; ${who(ev.dealer)} deals`;
    case "checked": return `${who(ev.seat)} checks`;
    // A bet, call or raise of the whole stack (nothing left after it) is an all-in.
    case "bet": return `${who(ev.seat)} bets ${ev.amount}${ev.stack === 0 ? " (all-in)" : ""}`;
    case "called_bet": return `${who(ev.seat)} calls ${ev.amount}${ev.stack === 0 ? " (all-in)" : ""}`;
    case "raised": return `${who(ev.seat)} raises to ${ev.to}${ev.stack === 0 ? " (all-in)" : ""}`;
    case "all_in": return `${who(ev.seat)} goes all-in with ${ev.amount}`;
    // The fee's pot: named by the event where it is not the sabacc pot (a game's own fee pot).
    case "folded": return `${who(ev.seat)} ${w.folds}${ev.fee ? ` (pays ${ev.fee} to the ${ev.pot || "sabacc pot"})` : ""}`;
    case "rolled": {
      // A game that words its own roll (its event's words: who rolled, what it means) is read
      // as it says it, with nothing added.
      if (typeof ev.words === "string" && ev.words) return nameCards(ev.words);
      const r = ev.roll || {};
      const dice = diceWords(r.dice);
      const means = r.shift ? ": a shift!" : ": no shift";
      const verb = ev.seat || !diceName.endsWith("dice") ? "rolls" : "roll";
      return `${ev.seat ? who(ev.seat) : capital(diceName)} ${verb} ${dice}${means}`;
    }
    case "hand_called": return `${who(ev.seat)} calls the hand`;
    case "no_call": return "Nobody calls";
    case "passed": return `${who(ev.seat)} does not call`;
    // A draw that says itself (its event's words) is read so; else by its turn action.
    case "drew": return typeof ev.words === "string" && ev.words ? nameCards(ev.words) : `${who(ev.seat)} ${actionWords(ev.action).done}`;
    case "reveal_started": return "The reveal: enter your cards";
    case "cards_entered": return `${who(ev.seat)} has entered their cards`;
    // A card on the table more often than the deck holds: the engine says which, and who enters again.
    case "reveal_conflict": return ev.message ? nameCards(ev.message) : "Two hands hold the same card: enter again";
    case "dealt_out": return ev.reason === "stack"
      ? `${who(ev.seat)} sits this hand out: the stack cannot pay the ante`
      : `${who(ev.seat)} sits this hand out: ${ev.reason}`;
    case "settled":
      // A game that words its own result says it (`words`); otherwise the settlement is read.
      if (typeof ev.words === "string" && ev.words) return nameCards(ev.words);
      // The result stays readable in the last actions after the next hand has started.
      try {
        const hands = (ev.settlement.hands || []).filter((x) => x.kind !== "folded")
          .map((x) => `${who(x.name)}: ${handWords(x)}`).join("; ");
        return `Result: ${hands ? `${hands}. ` : ""}${describeSettlement(namedSettlement(ev.settlement, names))}`;
      } catch (err) {
        return null;
      }
    case "conceded": return typeof ev.words === "string" && ev.words ? nameCards(ev.words)
      : `${who(ev.seat)} takes ${ev.amount}: everyone else ${w.folded}`;
    case "hand_ended": return `Hand ${ev.hand} is over`;
    case "session_ended": return "The session is over: see the final standings";
    case "undone": return ev.words ? `The host undid ${nameCards(ev.words)}` : "The host undid the last entry";
    case "rules_changed": return `From the next hand the table plays ${ev.game}`;
    default: {
      // A card laid face up or taken back: the kept cards' events, by the game's names for them.
      const kept = blockNames("kept");
      if (ev.type === kept.added) return `${who(ev.seat)} puts a card in the ${kept.words}`;
      if (ev.type === kept.removed) return `${who(ev.seat)} takes a card from the ${kept.words}`;
      // An event of a game this page does not know says itself in its `words` (shown as text).
      return typeof ev.words === "string" && ev.words ? nameCards(ev.words) : null;
    }
  }
}

/**
 * The one tap guard of the phone and the console. A button that appears where the finger just
 * was must not take a tap meant for the old one: after a tap or a rebuild the panels' buttons
 * take no tap for `ms` (class "settling", CSS), and after a rebuild also until `bounceMs` after
 * the last tap on them (a double tap's second tap comes about 550 ms after the first, whenever
 * the new buttons were drawn). An ignored tap is never silent: it lands on the panel, which
 * says so (".tap-ignored", a status), so a deliberate tap is simply made again.
 *   const tapGuard = new TapGuard(() => [$("actions-panel")]);
 *   tapGuard.arm();                          // after a tap
 *   tapGuard.rebuilt();                      // after the buttons were drawn again
 *   if (tapGuard.ignores(event, busy)) return; // in a click handler (keyboard taps, busy page)
 */
export class TapGuard {
  constructor(panels, ms = 400, bounceMs = 700) {
    this.panels = panels;
    this.ms = ms;
    this.bounceMs = bounceMs;
    this.until = 0;
    this.lastTapAt = 0;
    this.watched = new WeakSet();
  }

  arm(until = 0) {
    const now = Date.now();
    this.until = Math.max(this.until, now + this.ms, until);
    for (const panel of this.panels()) {
      if (!this.watched.has(panel)) {
        this.watched.add(panel);
        panel.addEventListener("pointerdown", () => { this.lastTapAt = Date.now(); }, true);
        // A settling button takes no tap (CSS): the tap lands on the panel, and is said to be
        // ignored. A tap on a button itself is its handler's to judge (it may have just armed).
        panel.addEventListener("click", (e) => {
          if (this.settling() && !(e.target.closest && e.target.closest("button, input, select, textarea, label, a"))) {
            tapIgnored(panel);
          }
        });
      }
      panel.classList.add("settling");
      setTimeout(() => { if (!this.settling()) panel.classList.remove("settling"); }, this.until - now + 20);
    }
  }

  /** After the buttons were drawn again: guard them, also against a late second tap. */
  rebuilt() {
    this.arm(this.lastTapAt + this.bounceMs);
  }

  settling() {
    return Date.now() < this.until;
  }

  /** Whether the tap `event` must be ignored (it then says so next to its button); `busy`:
   * a command of this page is still on its way, so the tap is ignored too. */
  ignores(event, busy = false) {
    this.lastTapAt = Date.now();
    const ignored = busy || this.settling();
    const target = event && event.currentTarget;
    if (ignored && target) tapIgnored(target);
    return ignored;
  }
}

/** Say next to `button` (or in its panel) that its tap was ignored (the buttons had just changed). */
function tapIgnored(button) {
  const panel = button.closest("[data-error-slot], section, .panel") || button.parentElement || button;
  if (!panel) return;
  let note = panel.querySelector(":scope > .tap-ignored");
  if (!note) {
    note = h("p", { class: "tap-ignored", role: "status" });
    panel.append(note);
  }
  note.textContent = "That tap came just as the buttons changed, so it was ignored: look, then tap again.";
  clearTimeout(note._timer);
  note._timer = setTimeout(() => { note.textContent = ""; }, 3000);
}

/** Clear the words of a stale tap ("The table moved on…") once a new hand has begun. */
function clearStaleWords(handNo) {
  for (const slot of document.querySelectorAll("[data-stale-hand]")) {
    if (slot.dataset.staleHand !== String(handNo)) {
      slot.textContent = "";
      delete slot.dataset.staleHand;
    }
  }
}

/**
 * A typed amount with − and + steppers, checked against `lo`..`hi` (the bet limit, the
 * stack) before anything is sent; `onSend(n, button)` sends it. Used by the phone and the
 * console alike.
 */
export function amountField({ id, label, lo, hi, verb, kept = null, onSend, guard = null }) {
  const input = h("input", {
    type: "number", id, inputmode: "numeric", min: lo, max: hi, step: 1, placeholder: `${lo}–${hi}`,
    "aria-describedby": `${id}-hint`, dataset: { key: id },
  });
  if (kept && kept.has(id)) input.value = kept.get(id);
  const remember = () => { if (kept) kept.set(id, input.value); };
  input.addEventListener("input", remember);
  const error = h("p", { class: "field-error", "aria-live": "assertive" });
  const step = (by) => {
    const now = /^\d+$/.test(input.value.trim()) ? Number(input.value) : lo - by;
    input.value = String(Math.min(hi, Math.max(lo, now + by)));
    remember();
    error.textContent = "";
  };
  const minus = h("button", { type: "button", class: "button stepper", "aria-label": `${verb} one less`, dataset: { key: `${id}-minus` } }, "−");
  const plus = h("button", { type: "button", class: "button stepper", "aria-label": `${verb} one more`, dataset: { key: `${id}-plus` } }, "+");
  minus.addEventListener("click", () => step(-1));
  plus.addEventListener("click", () => step(1));
  const button = h("button", { type: "submit", class: "button", dataset: { key: `${id}-send` } }, verb);
  const form = h("form", { class: "amount-form", novalidate: true, "data-error-slot": true },
    h("label", { for: id }, label),
    h("div", { class: "row" }, minus, input, plus, button),
    h("p", { class: "hint", id: `${id}-hint` }, `From ${lo} to ${hi}.`),
    error);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (guard && guard(e)) return;
    const raw = input.value.trim();
    // Checked here, before sending: a number outside the limit is never sent.
    if (!/^\d+$/.test(raw)) {
      error.textContent = raw ? `Type a whole number of credits from ${lo} to ${hi}.` : "Type the number of credits first.";
      input.focus();
      return;
    }
    const n = Number(raw);
    if (n < lo || n > hi) {
      error.textContent = `${n} is outside what you may ${verb.toLowerCase()} now: from ${lo} to ${hi}.`;
      input.focus();
      return;
    }
    const ok = await onSend(n, button);
    if (ok && kept) kept.delete(id);
  });
  return form;
}

/** Whose move it is and what they do: the server's words for this viewer (`hand.words`). */
export function turnWords(state, names, mySeat = null) {
  // The turn line is only ever the server's words (the engine words it for this viewer, from
  // the rule set's own phase names, as the rules page does): no fallback of the page's own,
  // which went stale when the engine's rulings changed ("call the round's bet").
  const hand = state && state.hand;
  if (!state) return "";
  if (state.ended) return "The session is over.";
  // A game played to a winner, once won: its end, in the server's words (no next hand).
  if (state.game_over && state.game_over.words) return state.game_over.words;
  if (!hand || hand.stage === "settled") return "Between hands: the host starts the next one.";
  return hand.words || "";
}

const KEEP_AWAKE_VIDEO = "/static/media/keepawake.webm";

/**
 * Keep the screen on while the page is visible. The Screen Wake Lock exists only in a secure
 * context (https, or localhost): the Pi's plain http address is not one. So, as NoSleep.js
 * does, a tiny silent looping video (shipped with the companion, made by
 * static/media/make_keepawake.py) plays too: a playing video keeps a phone's screen on.
 * Browsers let a video play only after a tap on some phones: every tap starts it again if it
 * stopped. document.body.dataset.awake says what holds the screen: "wakelock" | "video" | "off".
 */
export function keepScreenOn() {
  let lock = null;
  let video = null;
  const say = () => {
    document.body.dataset.awake = lock ? "wakelock" : video && !video.paused ? "video" : "off";
  };
  const playVideo = async () => {
    if (!video) {
      video = document.createElement("video");
      video.className = "keep-awake";
      video.muted = true;
      video.loop = true;
      video.playsInline = true;
      for (const a of ["muted", "loop", "playsinline"]) video.setAttribute(a, "");
      video.setAttribute("aria-hidden", "true");
      video.setAttribute("tabindex", "-1");
      video.src = KEEP_AWAKE_VIDEO;
      video.addEventListener("pause", say);
      video.addEventListener("playing", say);
      document.body.append(video);
    }
    if (!video.paused) return;
    try {
      await video.play();
    } catch (err) {
      /* not without a tap on this phone: the next tap starts it */
    }
    say();
  };
  const take = async () => {
    if (document.visibilityState !== "visible") return;
    if (!lock && "wakeLock" in navigator && window.isSecureContext) {
      try {
        lock = await navigator.wakeLock.request("screen");
        lock.addEventListener("release", () => { lock = null; say(); });
      } catch (err) {
        lock = null; // not allowed now (e.g. battery saver): the video keeps the screen on
      }
    }
    // The video plays in any case: a wake lock can be dropped by the phone at any time.
    await playVideo();
    say();
  };
  document.addEventListener("visibilitychange", take);
  for (const type of ["pointerdown", "keydown", "click"]) document.addEventListener(type, take, { capture: true });
  say();
  take();
}

let audio = null;
// Browsers only let sound start after a tap: make the audio context on the first one.
document.addEventListener("pointerdown", () => {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!audio && Ctx) audio = new Ctx();
  if (audio && audio.state === "suspended") audio.resume();
}, { capture: true });

/** Whether a beep can be heard (the page has had its first tap). */
export function soundReady() {
  return Boolean(audio) && audio.state !== "suspended";
}

/** A short two-tone beep made in the browser (Web Audio): no sound file is fetched. */
export function beep() {
  if (!audio) return false;
  const t = audio.currentTime;
  for (const [i, freq] of [[0, 880], [1, 660]]) {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.type = "square";
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, t + i * 0.18);
    gain.gain.exponentialRampToValueAtTime(0.25, t + i * 0.18 + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, t + i * 0.18 + 0.16);
    osc.connect(gain).connect(audio.destination);
    osc.start(t + i * 0.18);
    osc.stop(t + i * 0.18 + 0.17);
  }
  return true;
}

/** Vibrate where the phone can. */
export function vibrate(pattern) {
  if (typeof navigator.vibrate === "function") {
    try { navigator.vibrate(pattern); } catch (err) { /* not allowed yet: no tap so far */ }
  }
}

let nameCards = (words) => words;

/** Card codes in the server's words ("sa10") become the deck's names for them: give the deck's namer. */
export function setCardNamer(fn) {
  nameCards = fn || ((words) => words);
}

/** Words for a failed request. */
function refusalWords(status, data) {
  if (status === 0) return "The companion could not be reached. Check the Wi-Fi and tap again.";
  if (data && data.field === "version") return "The table moved on before your tap arrived: look again and tap once more.";
  return nameCards((data && data.error) || `The companion answered ${status}.`);
}

/**
 * What another player did between the version this page showed and the fresh `state` a stale
 * tap was answered with: "Han called the hand first." Null when it cannot be said.
 */
function whatHappened(events, state, mySeat) {
  const names = seatNames(state);
  const others = events.filter((ev) => ev.seat !== mySeat);
  const called = others.find((ev) => ev.type === "hand_called");
  if (called) return `${names.get(called.seat) || called.seat} called the hand first.`;
  const words = others.map((ev) => eventWords(ev, names)).filter(Boolean);
  if (!words.length) return null;
  return `${words.slice(0, 2).join("; ")} before your tap arrived: look again and tap once more.`;
}

const GAME_RELOAD_PREFIX = "sabacc.game-reload.";

/**
 * Follow a change of game (dealer's choice) at once: a page is drawn for its table's game (its
 * deck's card pickers, the pot's name, the console's options: <body data-game>), so when the
 * stream brings a view of another game the page loads itself again — the phone keeps its seat,
 * the console its token, the display its key. True when the page is being drawn again. Should
 * the page still come back for the old game (a copy kept while offline), it says so once
 * instead of loading again and again.
 */
function followGame(code, state) {
  const drawn = document.body.dataset.game;
  if (drawn === undefined || !state || !state.game) return false;
  const key = GAME_RELOAD_PREFIX + code;
  let tried = null;
  try { tried = sessionStorage.getItem(key); } catch (err) { /* no storage: the page loads again, unguarded */ }
  if (state.game === drawn) {
    if (tried !== null) try { sessionStorage.removeItem(key); } catch (err) { /* nothing kept */ }
    return false;
  }
  if (tried !== state.game) {
    try { sessionStorage.setItem(key, state.game); } catch (err) { /* reload all the same */ }
    window.location.reload();
    return true;
  }
  if (!document.getElementById("game-changed")) {
    document.body.prepend(h("p", { id: "game-changed", class: "game-changed", role: "alert" },
      `The table now plays ${state.game}: reload this page to get its cards.`));
  }
  return false;
}

/** One table, live: see the top of this file. */
export class LiveTable {
  constructor(code, { token = null, displayKey = null, onState = null, onStatus = null } = {}) {
    this.code = code.toUpperCase();
    this.token = token;
    this.displayKey = displayKey; // the table display's key: its stream's guaranteed place
    this.onState = onState;
    this.onStatus = onStatus;
    this.state = null;
    this.version = -1;
    this.seat = null;
    this.host = false;
    this.source = null;
    this.pending = []; // events of replayed updates that came without a state
    this.failures = 0;
    this.closed = false;
    this.timer = null;
  }

  get base() {
    return `/api/v1/tables/${encodeURIComponent(this.code)}`;
  }

  _headers(json) {
    const out = { Accept: "application/json" };
    if (json) out["Content-Type"] = "application/json";
    if (this.token) out.Authorization = `Bearer ${this.token}`;
    return out;
  }

  _status(status, words = "") {
    this.status = status;
    if (this.onStatus) this.onStatus(status, words);
  }

  /** Load the state, then listen. */
  async start() {
    this._status("connecting", "Connecting…");
    if (!(await this._load())) return;
    this._open();
  }

  /** GET the state; false when there is no point going on (no table, token refused). */
  async _load() {
    let response;
    try {
      response = await fetch(this.base, { headers: this._headers(false), cache: "no-store" });
    } catch (err) {
      this._retry();
      return false;
    }
    if (response.status === 404) {
      this._status("missing", "There is no such table on this companion.");
      return false;
    }
    if (response.status === 401 || response.status === 403) {
      this._status("refused", "This phone's seat token is no longer valid here.");
      return false;
    }
    if (!response.ok) {
      this._retry();
      return false;
    }
    const data = await response.json();
    this.seat = data.viewer.seat;
    this.host = data.viewer.host;
    this._take(data.version, data.state, []);
    return true;
  }

  _open() {
    if (this.closed) return;
    const params = new URLSearchParams();
    if (this.token) params.set("token", this.token);
    else if (this.displayKey) params.set("display", this.displayKey);
    if (this.version >= 0) params.set("last_event_id", String(this.version));
    // Each update then carries only the parts of the state that changed: the rest is kept.
    params.set("changed", "1");
    const es = new EventSource(`${this.base}/events?${params}`);
    this.source = es;
    es.onopen = () => {
      this.failures = 0;
      this._status("live", "Live");
    };
    es.addEventListener("snapshot", (e) => {
      const data = JSON.parse(e.data);
      this.pending = [];
      this._take(data.version, data.state, [], true);
    });
    es.addEventListener("update", (e) => {
      const data = JSON.parse(e.data);
      if (data.version <= this.version) return; // already shown (our own command's answer)
      this.pending.push(...(data.events || []));
      if (data.state) {
        const events = this.pending;
        this.pending = [];
        // The parts an update leaves out are the very ones of the last state this page took
        // (the stream's last, or a newer answer of the same viewer's: the same values).
        this._take(data.version, this.state ? { ...this.state, ...data.state } : data.state, events);
      }
    });
    es.addEventListener("bye", () => {
      es.close();
      this._retry();
    });
    es.onerror = () => {
      if (es.readyState === EventSource.CLOSED) {
        // Refused outright (e.g. 503 too many streams, 403): find out why, then try again.
        this._retry();
      } else {
        this._status("reconnecting", "Connection lost: reconnecting…");
      }
    };
  }

  _retry() {
    if (this.closed) return;
    if (this.source) this.source.close();
    this.source = null;
    this._status("reconnecting", "Connection lost: reconnecting…");
    const wait = RETRY_MS[Math.min(this.failures, RETRY_MS.length - 1)];
    this.failures += 1;
    clearTimeout(this.timer);
    this.timer = setTimeout(async () => {
      if (await this._load()) this._open();
    }, wait);
  }

  _take(version, state, events, force = false) {
    if (!force && version < this.version) return;
    if (followGame(this.code, state)) return; // drawn again for the table's new game
    // Our own command's answer can arrive after the stream already showed that entry: its
    // events (a line in the last actions, a shift's flash and sound) are shown once only.
    if (!force && version === this.version) events = [];
    this.version = version;
    this.state = state;
    if (state && state.rules) setGameWords(state.rules);
    if (state) blocks = state.blocks || {};
    document.body.dataset.version = String(version);
    clearStaleWords(state && state.hand ? state.hand.no : 0);
    if (this.onState) this.onState(state, events, this);
  }

  /**
   * Send a command as this page's token; see the top of this file.
   * @returns {Promise<{ok: boolean, status: number, data: object}>}
   */
  async send(entry, control = null) {
    const slot = control ? errorSlot(control) : null;
    if (slot) slot.textContent = "";
    const body = JSON.stringify({ ...entry, version: this.version, idempotency_key: newKey() });
    let result = null;
    for (let attempt = 0; attempt < 2 && !result; attempt++) {
      try {
        const response = await fetch(`${this.base}/commands`, { method: "POST", headers: this._headers(true), body });
        let data;
        try {
          data = await response.json();
        } catch (err) {
          data = { error: `The companion answered ${response.status}.`, field: null };
        }
        result = { ok: response.ok, status: response.status, data };
      } catch (err) {
        if (attempt === 0) await new Promise((r) => setTimeout(r, 800));
      }
    }
    result = result || { ok: false, status: 0, data: null };
    const shown = this.version;
    if (result.ok) {
      this._take(result.data.version, result.data.state, result.data.events || []);
    } else {
      if (result.data && result.data.state && result.data.version > this.version) {
        this._take(result.data.version, result.data.state, []);
      }
      let words = refusalWords(result.status, result.data);
      if (result.data && result.data.field === "version" && result.data.state) {
        // Two taps at once: say what the other one did, read from the log since this page's version.
        const events = await this.eventsAfter(shown);
        words = whatHappened(events, result.data.state, this.seat) || words;
      }
      if (slot) {
        slot.textContent = words;
        // Words about a stale tap belong to this hand only: cleared when the next one begins.
        if (result.data && result.data.field === "version") {
          slot.dataset.staleHand = String(this.state && this.state.hand ? this.state.hand.no : 0);
        }
      }
      result.words = words;
      if ((result.status === 401 || result.status === 403) && result.data && result.data.field === "token") {
        // The token stopped working (the host moved the seat to another phone): say so, stop.
        this._status("refused", "This phone's token is no longer valid here.");
        this.close();
      }
    }
    return result;
  }

  /** The events of the ledger entries after `version` (undone ones left out), oldest first. */
  async eventsAfter(version, limit = 10) {
    try {
      const response = await fetch(`${this.base}/log?after=${version}&limit=${limit}`, { headers: this._headers(false) });
      if (!response.ok) return [];
      const data = await response.json();
      return data.entries.filter((e) => !e.undone_by).flatMap((e) => e.events || []);
    } catch (err) {
      return [];
    }
  }

  /** The events of the last `entries` ledger entries (undone ones left out), oldest first. */
  async recentEvents(entries = 20) {
    const after = Math.max(0, this.version - entries);
    try {
      const response = await fetch(`${this.base}/log?after=${after}&limit=${entries}`, { headers: this._headers(false) });
      if (!response.ok) return [];
      const data = await response.json();
      return data.entries.filter((e) => !e.undone_by).flatMap((e) => e.events || []);
    } catch (err) {
      return [];
    }
  }

  /** Stop listening. */
  close() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.source) this.source.close();
  }
}
