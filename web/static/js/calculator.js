// The payout calculator page: build a POST /api/v1/settle request from the form, show the
// result in words and as a table, run the tie's exchange (a sudden demise, or a blind draw),
// and show a 422 next to the control its `field` names. What each rule set's game is — its
// deck, its tie rule, whether anyone calls, its words, the options it takes — comes from the
// server on each preset's <option data-game>.

import { postJSON, clearFieldErrors, showFieldError } from "./api.js";
import { loadDeck, CardPool, CardPicker, cardName } from "./cardpicker.js";
import { describeSettlement, handWords, joinWords, setKindWords } from "./settlement.js";
import { DeclaredForm, declaredRows, declaredSentence, declaredTie } from "./calculator_form.js";

const form = document.getElementById("calculator");
const playersList = document.getElementById("players");
const template = document.getElementById("player-template");
const presetSelect = document.getElementById("preset");
const presetSummary = document.getElementById("preset-summary");
const presetLink = document.getElementById("preset-rules-link");
const tarotBox = document.getElementById("tarot");
const formError = document.getElementById("form-error");
const resultBox = document.getElementById("result");
const demiseBox = document.getElementById("demise");
const demiseList = document.getElementById("demise-players");
const demiseError = document.getElementById("demise-error");
// The variants that change what each player enters (the option names of SETTLE-API.md).
const holdemBox = document.getElementById("holdem");
const forceBox = document.getElementById("force-sabacc");
const corelliaBox = document.getElementById("corellia-run");

const STARTING_PLAYERS = 3;
let deck = null;
let pool = null;
let playerSeq = 0;
const players = []; // {li, picker, staticPicker} in seat order
let demise = null; // {request, pickers: Map(name -> picker), field} while a tie's exchange is open
// A game that declares its form (CalculatorSchema.form) is drawn from it in #declared; the
// games played with a rule set use the form of the rule-set request (data-rule-set-form).
const declaredRoot = document.getElementById("declared");
let declared = null; // the DeclaredForm while such a game is chosen

/** The game of the chosen preset: {deck, tie, calls, kind_words, folded, foreign}. */
function game() {
  return JSON.parse(presetSelect.selectedOptions[0].dataset.game);
}

/** The option controls the chosen game does not take (another game's options). */
function foreignControls() {
  const foreign = new Set(game().foreign);
  return [...form.querySelectorAll('.control[data-field^="rules."]')]
    .filter((c) => foreign.has(c.dataset.field.slice("rules.".length)));
}

function input(li, id) {
  return li.querySelector(`[data-id="${id}"]`);
}

function addPlayer() {
  const n = ++playerSeq;
  const li = template.content.firstElementChild.cloneNode(true);
  // Give every control a unique id and tie each label to its control.
  for (const el of li.querySelectorAll("[data-id]")) el.id = `p${n}-${el.dataset.id}`;
  for (const label of li.querySelectorAll("label[data-for]")) label.htmlFor = `p${n}-${label.dataset.for}`;
  input(li, "picker").setAttribute("aria-labelledby", `p${n}-cards-label`);
  input(li, "static-picker").setAttribute("aria-labelledby", `p${n}-static-label`);
  playersList.append(li);
  const player = { li, picker: null, staticPicker: null };
  makePickers(player);
  players.push(player);
  input(li, "folded").addEventListener("change", (e) => {
    player.picker.setDisabled(e.target.checked);
    li.classList.toggle("is-folded", e.target.checked);
    showVariants();
    invalidate();
  });
  input(li, "called").value = String(n);
  li.querySelector('[data-action="remove"]').addEventListener("click", () => removePlayer(player));
  li.querySelector('[data-action="up"]').addEventListener("click", () => movePlayer(player, -1));
  li.querySelector('[data-action="down"]').addEventListener("click", () => movePlayer(player, +1));
  for (const el of li.querySelectorAll("input")) el.addEventListener("input", invalidate);
  renumber();
  showVariants();
  showGame();
  return player;
}

/** A player's two card pickers, on the deck in play (made again when the deck changes). */
function makePickers(player) {
  const pickerRoot = input(player.li, "picker");
  const staticRoot = input(player.li, "static-picker");
  player.picker = new CardPicker(pickerRoot, { deck, pool, tarot: tarotBox.checked, onChange: invalidate });
  player.staticPicker = new CardPicker(staticRoot, { deck, pool, tarot: tarotBox.checked, onChange: invalidate });
  if (input(player.li, "folded").checked) player.picker.setDisabled(true);
}

/**
 * Show what the chosen game takes: only its own options, the caller only where a hand ends
 * by a call, "Folded" or "Junked" in its words; and load its deck when that changes (the
 * cards entered so far belong to the other deck, so every picker starts empty).
 */
async function showGame() {
  const g = game();
  if (g.form) {
    await showDeclared(g);
    return;
  }
  if (declared) {
    declared.destroy();
    declared = null;
  }
  showRuleSetForm(true);
  setKindWords(g.kind_words, g.pot_words);
  const foreign = new Set(foreignControls());
  for (const c of form.querySelectorAll('.control[data-field^="rules."]')) c.hidden = foreign.has(c);
  for (const fs of form.querySelectorAll("fieldset.variants")) {
    fs.hidden = [...fs.querySelectorAll(".control[data-field]")].every((c) => c.hidden);
  }
  for (const c of form.querySelectorAll('.control[data-key="called"]')) c.hidden = !g.calls;
  document.getElementById("no-caller").closest(".control").hidden = !g.calls;
  const folded = g.folded.charAt(0).toUpperCase() + g.folded.slice(1);
  for (const w of form.querySelectorAll(".folded-word")) w.textContent = folded;
  if (deck && deck.name !== g.deck) {
    const next = await loadDeck(g.deck);
    if (game().deck !== next.name) return; // the preset changed again meanwhile
    closeDemise();
    for (const p of players) {
      p.picker.destroy();
      p.staticPicker.destroy();
    }
    deck = next;
    pool = new CardPool(deck);
    for (const p of players) makePickers(p);
    showVariants();
    form.dataset.deck = deck.name;
  }
}

/** Show the form of the rule-set request, or hide it while a declared form is shown. */
function showRuleSetForm(shown) {
  for (const el of document.querySelectorAll("[data-rule-set-form]")) el.hidden = !shown;
  declaredRoot.hidden = shown;
  document.getElementById("payouts-amount-h").textContent = "Payout";
  document.getElementById("payouts-after-h").textContent = "Stack after";
  document.getElementById("payouts-after-h").hidden = false;
}

/** A game that declares its form: load its deck and draw the form from its fields. */
async function showDeclared(g) {
  if (!deck || deck.name !== g.deck) {
    const next = await loadDeck(g.deck);
    if (game().deck !== next.name) return; // the preset changed again meanwhile
    closeDemise();
    for (const p of players) {
      p.picker.destroy();
      p.staticPicker.destroy();
    }
    deck = next;
    pool = new CardPool(deck);
    for (const p of players) makePickers(p);
    form.dataset.deck = deck.name;
  }
  if (declared) declared.destroy();
  showRuleSetForm(false);
  declared = new DeclaredForm(declaredRoot, g.form, { deck, pool, tarot: tarotBox.checked, onChange: invalidate });
}

function removePlayer(player) {
  const i = players.indexOf(player);
  if (i < 0) return;
  players.splice(i, 1);
  player.picker.destroy();
  player.staticPicker.destroy();
  player.li.remove();
  renumber();
  invalidate();
  const next = players[Math.min(i, players.length - 1)];
  (next ? input(next.li, "name") : document.getElementById("add-player")).focus();
}

function movePlayer(player, step) {
  const i = players.indexOf(player);
  const j = i + step;
  if (j < 0 || j >= players.length) return;
  [players[i], players[j]] = [players[j], players[i]];
  playersList.replaceChildren(...players.map((p) => p.li));
  renumber();
  invalidate();
  player.li.querySelector(`[data-action="${step < 0 ? "up" : "down"}"]`).focus();
}

/** Seat labels ("Seat 3, the dealer") and the API paths errors point to follow the order. */
function renumber() {
  players.forEach((p, i) => {
    const last = i === players.length - 1;
    p.li.querySelector(".seat-label").textContent =
      i === 0 && !last ? `Seat 1, on the dealer's left` : last ? `Seat ${i + 1}, the dealer` : `Seat ${i + 1}`;
    p.li.dataset.field = `players[${i}]`;
    for (const c of p.li.querySelectorAll(".control[data-key]")) c.dataset.field = `players[${i}].${c.dataset.key}`;
    p.li.querySelector('[data-action="up"]').disabled = i === 0;
    p.li.querySelector('[data-action="down"]').disabled = last;
  });
}

/** A variant's box counts only while the chosen game offers it. */
function on(box) {
  return box.checked && !box.closest(".control").hidden;
}

/** Corellia Run sets aside the cards the deck names for it; otherwise every card is dealt. */
function allowedCards() {
  const aside = new Set((deck.set_aside || []).filter((s) => s.option === "corellia_run").flatMap((s) => s.cards));
  return on(corelliaBox) ? (card) => !aside.has(card.code) : null;
}

/**
 * Show each player's Force Sabacc side and Hold 'Em static field only where the variant is
 * played. A static field that is not in play is greyed out, so its cards stop counting.
 */
function showVariants() {
  for (const p of players) {
    const folded = input(p.li, "folded").checked;
    for (const el of p.li.querySelectorAll("[data-variant]")) {
      el.hidden = !on(document.querySelector(`#calculator input[name="${el.dataset.variant}"]`));
    }
    p.staticPicker.setDisabled(folded || !on(holdemBox));
    p.picker.setAllowed(allowedCards());
    p.staticPicker.setAllowed(allowedCards());
    input(p.li, "cards-label").textContent = on(holdemBox)
      ? "Cards in hand (not the static field)"
      : "Cards at the reveal (static field included)";
  }
}

/** Anything typed after a result makes that result stale: say so above it. */
function invalidate() {
  closeDemise();
  if (!resultBox.hidden) {
    resultBox.classList.add("is-stale");
    document.getElementById("result-stale").hidden = false;
  }
}

function whole(value) {
  // Sent as typed: the server says in words what is wrong with "2.5" or "-3".
  return value.trim() === "" ? null : Number(value);
}

function rulesSpec() {
  const options = {};
  const foreign = new Set(foreignControls().map((c) => c.dataset.field.slice("rules.".length)));
  const penalty = form.querySelector('input[name="penalty"]:checked').value;
  if (penalty === "fixed") options.bomb_out_penalty = whole(document.getElementById("penalty-amount").value);
  const ranking = document.getElementById("ranking").value;
  if (ranking) options.ranking = ranking;
  if (holdemBox.checked) options.holdem = true;
  if (forceBox.checked) options.force_sabacc = true;
  if (corelliaBox.checked) options.corellia_run = true;
  for (const name of foreign) delete options[name];
  return Object.keys(options).length ? { preset: presetSelect.value, ...options } : presetSelect.value;
}

function buildRequest() {
  return {
    rules: rulesSpec(),
    players: players.map((p) => {
      const folded = input(p.li, "folded").checked;
      // Hold 'Em: the static field is entered apart; the API wants it in `cards` too.
      const staticCards = on(holdemBox) && !folded ? p.staticPicker.cards : [];
      const out = {
        name: input(p.li, "name").value.trim(),
        cards: folded ? [] : p.picker.cards.concat(staticCards),
        committed: whole(input(p.li, "committed").value) ?? 0,
      };
      if (staticCards.length) out.static = staticCards;
      const side = input(p.li, "side").value;
      if (on(forceBox) && !folded && side) out.side = side;
      const stack = whole(input(p.li, "stack").value);
      if (stack !== null) out.stack = stack;
      if (folded) out.folded = true;
      if (input(p.li, "called").checked && game().calls) out.called = true;
      return out;
    }),
    sabacc_pot: whole(document.getElementById("sabacc-pot").value) ?? 0,
  };
}

function clearErrors() {
  clearFieldErrors(document);
  formError.textContent = "";
  demiseError.textContent = "";
}

/** Show a refused request's words next to the control it names (or under the button). */
function showError(data, fallback) {
  const words = data && data.error ? data.error : "The companion refused this request.";
  const shown = data && data.field ? showFieldError(declared ? declaredRoot : document, data.field, words) : null;
  if (shown) {
    // An option inside the closed "Options" box must be seen to be fixed.
    const details = shown.closest("details");
    if (details) details.open = true;
    const control = shown.querySelector("input, select, button");
    if (control) control.focus({ preventScroll: true });
    shown.scrollIntoView({ block: "center" });
    fallback.textContent = "Please check the field marked above.";
  } else {
    fallback.textContent = words;
  }
}

async function settle(request, errorSlot) {
  clearErrors();
  const button = errorSlot === demiseError ? document.getElementById("demise-settle") : document.getElementById("settle");
  button.disabled = true;
  button.setAttribute("aria-busy", "true");
  try {
    const { ok, data } = await postJSON(form.dataset.settleUrl, request);
    if (!ok) {
      showError(data, errorSlot);
      return;
    }
    const tie = declared ? declaredTie(game().form, data) : ruleSetTie(data);
    if (tie) openDemise(request, tie);
    else if (declared) showDeclaredResult(request, data);
    else showResult(request, data);
  } finally {
    button.disabled = false;
    button.removeAttribute("aria-busy");
  }
}

/** The tie's exchange an answer of the rule-set request asks for, or null when settled. */
function ruleSetTie(data) {
  if (data.status !== "sudden_demise" && data.status !== "blind_draw") return null;
  const blind = data.status === "blind_draw";
  const names = blind ? data.blind_draw_players : data.demise_players;
  return {
    names,
    field: blind ? "blind_draw" : "demise",
    adds: blind, // a blind draw's cards add up, one a draw; a sudden demise deals one card
    title: blind ? "Blind draw" : "Sudden demise",
    text: blind
      ? `${joinWords(names)} tie. Each of them draws a card from the draw pile: pick the card each one drew, then settle.`
      : `${joinWords(names)} tie. The dealer deals each of them one more card: pick the card each one was dealt, then settle.`,
    label: (name) => (blind ? `Card drawn by ${name}` : `Card dealt to ${name}`),
  };
}

function openDemise(request, tie) {
  resultBox.hidden = true;
  closeDemise();
  const { names, field } = tie;
  document.getElementById("demise-title").textContent = tie.title;
  document.getElementById("demise-text").textContent = tie.text;
  const pickers = new Map();
  names.forEach((name, k) => {
    const i = request.players.findIndex((p) => p.name === name);
    const wrap = document.createElement("div");
    wrap.className = "control demise-player";
    wrap.dataset.field = `players[${i}].${field}`;
    const label = document.createElement("span");
    label.className = "label";
    label.id = `demise-label-${k}`;
    label.textContent = tie.label(name);
    const root = document.createElement("div");
    root.id = `demise-picker-${k}`;
    root.setAttribute("aria-labelledby", label.id);
    const err = document.createElement("p");
    err.className = "field-error";
    err.setAttribute("aria-live", "polite");
    wrap.append(label, root, err);
    demiseList.append(wrap);
    pickers.set(name, new CardPicker(root, { deck, pool, max: 1, tarot: tarotBox.checked, allowed: allowedCards() }));
  });
  demise = { request, pickers, field, adds: Boolean(tie.adds) };
  demiseBox.hidden = false;
  // A plain focus() would only just scroll the heading into view at the bottom edge of a
  // phone, with the pickers below it: bring the whole prompt to the top of the screen.
  document.getElementById("demise-h").focus({ preventScroll: true });
  demiseBox.scrollIntoView({ block: "start" });
}

function closeDemise() {
  if (!demise) return;
  for (const p of demise.pickers.values()) p.destroy();
  demiseList.replaceChildren();
  demiseBox.hidden = true;
  demise = null;
}

function settleDemise() {
  if (!demise) return;
  const request = structuredClone(demise.request);
  for (const p of request.players) {
    const picker = demise.pickers.get(p.name);
    // Where a tie's cards add up, each new card joins those sent before.
    if (picker) p[demise.field] = demise.adds ? (p[demise.field] || []).concat(picker.cards) : picker.cards;
  }
  settle(request, demiseError);
}

function cell(text, className) {
  const td = document.createElement("td");
  td.textContent = text;
  if (className) td.className = className;
  return td;
}

function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

function showResult(request, data) {
  closeDemise();
  document.getElementById("result-sentence").textContent = describeSettlement(data);
  const rows = data.hands.map((hand, i) => {
    const tr = document.createElement("tr");
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = hand.name;
    const sent = request.players[i] || {};
    const cards = (sent.cards || []).concat(sent.demise || []).map((c) => cardName(deck, c, tarotBox.checked));
    const handCell = cell(handWords(hand));
    if (cards.length && hand.kind !== "conceded") {
      const small = document.createElement("span");
      small.className = "muted cards-line";
      small.textContent = cards.join(", ");
      handCell.append(document.createElement("br"), small);
    }
    const payout = data.payouts[hand.name];
    const stack = typeof sent.stack === "number" ? String(sent.stack + payout) : "—";
    tr.append(th, handCell, cell(signed(payout), `num ${payout > 0 ? "plus" : payout < 0 ? "minus" : ""}`), cell(stack, "num"));
    tr.dataset.name = hand.name;
    return tr;
  });
  document.querySelector("#payouts tbody").replaceChildren(...rows);
  document.getElementById("sabacc-after").textContent = String(data.sabacc_pot_after);
  resultBox.classList.remove("is-stale");
  document.getElementById("result-stale").hidden = true;
  resultBox.hidden = false;
  document.getElementById("result-h").focus({ preventScroll: true });
  resultBox.scrollIntoView({ block: "start" });
}

/** The answer of a declared form: its sentence, and the table with the game's columns. */
function showDeclaredResult(request, data) {
  closeDemise();
  const result = game().form.result;
  document.getElementById("result-sentence").textContent = declaredSentence(game().form, data);
  document.getElementById("payouts-amount-h").textContent = result.amount_label;
  const afterHead = document.getElementById("payouts-after-h");
  afterHead.textContent = result.after_label;
  afterHead.hidden = !result.after_label;
  const rows = declaredRows(game().form, request, data).map((row) => {
    const tr = document.createElement("tr");
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = row.name;
    const sign = result.signed ? (row.value > 0 ? "plus" : row.value < 0 ? "minus" : "") : "";
    tr.append(th, cell(row.hand), cell(row.amount, `num ${sign}`));
    if (result.after_label) tr.append(cell(row.after, "num"));
    tr.dataset.name = row.name;
    return tr;
  });
  document.querySelector("#payouts tbody").replaceChildren(...rows);
  resultBox.classList.remove("is-stale");
  document.getElementById("result-stale").hidden = true;
  resultBox.hidden = false;
  document.getElementById("result-h").focus({ preventScroll: true });
  resultBox.scrollIntoView({ block: "start" });
}

function showPreset() {
  const option = presetSelect.selectedOptions[0];
  presetSummary.textContent = option.dataset.summary;
  presetLink.href = `/rules?preset=${encodeURIComponent(presetSelect.value)}`;
}

async function start() {
  try {
    deck = await loadDeck(form.dataset.cardsUrl);
  } catch (err) {
    formError.textContent = `The card list could not be loaded: ${err.message}. Reload the page.`;
    return;
  }
  pool = new CardPool(deck);
  form.dataset.deck = deck.name;
  for (let i = 0; i < STARTING_PLAYERS; i++) addPlayer();
  document.getElementById("add-player").addEventListener("click", () => {
    const p = addPlayer();
    input(p.li, "name").focus();
  });
  presetSelect.addEventListener("change", () => { showPreset(); showGame(); invalidate(); });
  form.addEventListener("change", invalidate);
  tarotBox.addEventListener("change", () => {
    for (const p of players) {
      p.picker.setTarot(tarotBox.checked);
      p.staticPicker.setTarot(tarotBox.checked);
    }
    if (declared) declared.setTarot(tarotBox.checked);
  });
  for (const box of [holdemBox, forceBox, corelliaBox]) box.addEventListener("change", showVariants);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    settle(declared ? declared.request(presetSelect.value) : buildRequest(), formError);
  });
  document.getElementById("demise-settle").addEventListener("click", settleDemise);
  showPreset();
  await showGame();
  form.dataset.ready = "true";
}

start();
