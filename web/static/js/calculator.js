// The payout calculator page: the form of the chosen preset's game, drawn from the form its
// game declares (CalculatorSchema.form, on each preset's <option data-game>): its options, its
// request's fields, each player's fields. Builds a POST /api/v1/settle request from it, runs
// the tie's exchange the game declares, shows a 422 next to the control its `field` names, and
// the answer as a sentence and a table with the game's columns. Nothing here names a game.

import { postJSON, clearFieldErrors, showFieldError } from "./api.js";
import { loadDeck, CardPool, CardPicker, cardName } from "./cardpicker.js";
import { describeSettlement, handWords, joinWords, setKindWords } from "./settlement.js";

const form = document.getElementById("calculator");
const playersList = document.getElementById("players");
const presetSelect = document.getElementById("preset");
const presetSummary = document.getElementById("preset-summary");
const presetLink = document.getElementById("preset-rules-link");
const tarotBox = document.getElementById("tarot");
const optionsRoot = document.getElementById("option-fields");
const fieldsRoot = document.getElementById("request-fields");
const nobody = document.getElementById("nobody");
const formError = document.getElementById("form-error");
const resultBox = document.getElementById("result");
// The tie's prompt (the ids tie, tie-h, tie-text; a picker per tied player, tie-picker-<k>).
const TIE = "tie";
const tieBox = document.getElementById(TIE);
const tieList = document.getElementById("tie-players");
const tieError = document.getElementById("tie-error");

let deck = null;
let pool = null;
let shape = null; // the declared form on the page (the game's), or null before the first
let options = []; // [{field, el, amount?}] the rules' options
let fields = []; // [{field, el}] the request's own fields
let playerSeq = 0;
const players = []; // {li, boxes: Map(key -> element or picker), pickers: [CardPicker]} in seat order
let tie = null; // {request, pickers: Map(name -> picker), field, adds} while a tie's exchange is open

/** The chosen preset's game: {game, deck, form}. */
function game() {
  return JSON.parse(presetSelect.selectedOptions[0].dataset.game);
}

function errorSlot() {
  const err = document.createElement("p");
  err.className = "field-error";
  err.setAttribute("aria-live", "polite");
  return err;
}

/** A labelled control for one declared field (`id` makes the label's target unique). */
function control(field, id) {
  const wrap = document.createElement(field.kind === "penalty" ? "fieldset" : "div");
  wrap.className = field.kind === "cards" ? "control cards-control" : "control";
  if (field.kind === "cards") {
    const label = document.createElement("span");
    label.className = "label";
    label.id = `${id}-label`;
    label.textContent = field.label;
    const el = document.createElement("div");
    el.id = id;
    el.setAttribute("aria-labelledby", label.id);
    wrap.append(label, el, errorSlot());
    return { wrap, el, label };
  }
  if (field.kind === "penalty") {
    // One of the choices, or a fixed amount typed in.
    const legend = document.createElement("legend");
    legend.textContent = field.label;
    wrap.append(legend);
    const radios = [...field.choices, ["fixed", field.fixed]].map(([value, words], k) => {
      const label = document.createElement("label");
      label.className = "check";
      const radio = document.createElement("input");
      radio.type = "radio";
      radio.name = `${id}-choice`;
      radio.value = value;
      radio.checked = k === 0;
      label.append(radio, ` ${words}`);
      wrap.append(label);
      return radio;
    });
    const amountLabel = document.createElement("label");
    amountLabel.htmlFor = `${id}-amount`;
    amountLabel.textContent = field.amount;
    const amount = document.createElement("input");
    Object.assign(amount, { id: `${id}-amount`, type: "number", inputMode: "numeric", min: "0", step: "1" });
    amount.value = String(field.value ?? 0);
    wrap.append(amountLabel, amount, errorSlot());
    return { wrap, el: { radios, amount }, label: legend };
  }
  let el;
  if (field.kind === "choice") {
    el = document.createElement("select");
    for (const [value, words] of field.choices) {
      const option = document.createElement("option");
      option.value = String(value);
      option.textContent = words;
      el.append(option);
    }
  } else {
    el = document.createElement("input");
    el.type = field.kind === "flag" ? "checkbox" : field.kind === "one" ? "radio" : "text";
    if (field.kind === "one") el.name = "one";
    if (field.kind === "whole") {
      Object.assign(el, { type: "number", inputMode: "numeric", min: "0", step: "1" });
      if (!field.optional) el.value = "0";
    }
    if (field.kind === "text") el.autocomplete = "off";
  }
  el.id = id;
  const label = document.createElement("label");
  label.htmlFor = id;
  if (field.kind === "flag" || field.kind === "one") {
    label.className = "check";
    label.append(el, " ");
    const words = document.createElement("span");
    words.textContent = field.label;
    label.append(words);
    wrap.append(label, errorSlot());
  } else {
    label.textContent = field.label;
    wrap.append(label, el, errorSlot());
  }
  return { wrap, el, label };
}

/** The value a control holds, as the request sends it (undefined: leave the field out). */
function valueOf(field, el) {
  if (field.kind === "cards") return el.cards;
  if (field.kind === "flag" || field.kind === "one") return el.checked || undefined;
  if (field.kind === "choice") {
    // The value as declared (a number stays a number), by the option chosen.
    const value = field.choices[el.selectedIndex][0];
    return value === "" ? undefined : value;
  }
  if (field.kind === "penalty") {
    const chosen = el.radios.find((r) => r.checked).value;
    // Sent as typed: the server says in words what is wrong with "2.5" or "-3".
    return chosen === "fixed" ? whole(el.amount.value) : chosen === el.radios[0].value ? undefined : chosen;
  }
  const text = el.value.trim();
  if (field.kind === "text") return text;
  if (field.kind === "numbers") return text === "" ? undefined : text.split(/[\s,]+/).filter(Boolean).map(Number);
  if (text === "") return field.optional ? undefined : 0;
  return Number(text);
}

function whole(value) {
  return value.trim() === "" ? null : Number(value);
}

/** Set `value` at the dotted `key` of `out` ("target.suit" fills out.target.suit). */
function put(out, key, value) {
  if (value === undefined) return;
  const parts = key.split(".");
  let at = out;
  for (const part of parts.slice(0, -1)) at = at[part] ??= {};
  at[parts[parts.length - 1]] = value;
}

/** Whether the option a field depends on is on (a field without `when` always is). */
function on(name) {
  if (!name) return true;
  const o = options.find((x) => x.field.key === name);
  return Boolean(o && o.el.checked);
}

/** The cards the rules let a hand hold: those a ticked option sets aside are not offered. */
function allowedCards() {
  const aside = new Set((deck.set_aside || []).filter((s) => on(s.option)).flatMap((s) => s.cards));
  return aside.size ? (card) => !aside.has(card.code) : null;
}

/** Draw the chosen game's form: its options, its request's fields, its players. */
function drawForm(g) {
  closeTie();
  for (const p of players.splice(0)) {
    p.pickers.forEach((picker) => picker.destroy());
    p.li.remove();
  }
  shape = g.form;
  // The answer's words: the game's kinds of hand and its pot.
  setKindWords(shape.result.kinds, shape.result.pot_words);
  options = [];
  optionsRoot.replaceChildren();
  let group = null;
  for (const field of shape.options || []) {
    const { wrap, el } = control(field, `option-${field.key}`);
    wrap.dataset.field = `rules.${field.key}`;
    if (field.group) {
      if (!group || group.dataset.group !== field.group) {
        group = document.createElement("fieldset");
        group.className = "control variants";
        group.dataset.group = field.group;
        const legend = document.createElement("legend");
        legend.textContent = field.group;
        group.append(legend);
        optionsRoot.append(group);
      }
      group.append(wrap);
    } else {
      group = null;
      optionsRoot.append(wrap);
    }
    if (field.kind === "flag") el.addEventListener("change", showWhen);
    options.push({ field, el });
  }
  // What was typed into a field the next game's form has too (the sabacc pot) stays typed: the
  // form is drawn again once the next game's deck has loaded, maybe after the typing.
  const typed = new Map(fields.filter(({ el }) => el instanceof HTMLInputElement && el.type !== "checkbox" && el.value !== "")
    .map(({ field, el }) => [field.key, el.value]));
  fields = [];
  fieldsRoot.replaceChildren();
  document.getElementById("fields-legend").textContent = shape.legend || "The reveal";
  for (const field of shape.fields || []) {
    const { wrap, el } = control(field, `field-${field.key.replace(/\W+/g, "-")}`);
    wrap.dataset.field = field.key;
    if (typed.has(field.key) && el instanceof HTMLInputElement) el.value = typed.get(field.key);
    fieldsRoot.append(wrap);
    fields.push({ field, el });
  }
  document.getElementById("fields-panel").hidden = !fields.length;
  const seats = shape.seats || {};
  document.getElementById("seat-hint").textContent = seats.hint || "Add players in seat order.";
  const one = (shape.player || []).find((f) => f.kind === "one");
  nobody.hidden = !one;
  document.getElementById("nobody-box").checked = true;
  if (one) document.getElementById("nobody-words").textContent = one.nobody;
  for (let i = 0; i < (shape.players || 2); i++) addPlayer();
}

function addPlayer() {
  const n = ++playerSeq;
  const li = document.createElement("li");
  li.className = "player";
  const card = document.createElement("fieldset");
  card.className = "player-card";
  const legend = document.createElement("legend");
  legend.className = "seat-label";
  card.append(legend);
  const player = { li, boxes: new Map(), labels: new Map(), pickers: [] };
  let half = null;
  for (const field of shape.player || []) {
    const { wrap, el, label } = control(field, `p${n}-${field.key}`);
    wrap.dataset.key = field.key;
    if (field.when) wrap.dataset.when = field.when;
    if (field.half) {
      // Two short number fields share a row.
      if (!half) {
        half = document.createElement("div");
        half.className = "grid-2";
        card.append(half);
      }
      half.append(wrap);
    } else {
      half = null;
      card.append(wrap);
    }
    player.labels.set(field.key, label);
    if (field.kind === "cards") {
      const picker = new CardPicker(el, { deck, pool, max: field.max || 0, tarot: tarotBox.checked,
        allowed: allowedCards(), onChange: invalidate });
      player.pickers.push(picker);
      player.boxes.set(field.key, picker);
    } else {
      player.boxes.set(field.key, el);
      el.addEventListener("input", invalidate);
      el.addEventListener("change", invalidate);
    }
    if (field.folds) {
      // A player out of the hand: their cards stop counting against the deck.
      el.addEventListener("change", () => {
        li.classList.toggle("is-folded", el.checked);
        showWhen();
      });
    }
  }
  const actions = document.createElement("div");
  actions.className = "row seat-actions";
  for (const [action, words] of [["up", "Move up"], ["down", "Move down"], ["remove", "Remove"]]) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = action === "remove" ? "button small danger" : "button small";
    button.dataset.action = action;
    button.textContent = words;
    button.addEventListener("click", () => (action === "remove" ? removePlayer(player) : movePlayer(player, action === "up" ? -1 : 1)));
    actions.append(button);
  }
  card.append(actions);
  li.append(card);
  playersList.append(li);
  players.push(player);
  renumber();
  showWhen();
  return player;
}

/** The field of a player marked `folds` says whether they are out of the hand. */
function folded(player) {
  const f = (shape.player || []).find((x) => x.folds);
  return Boolean(f && player.boxes.get(f.key).checked);
}

function removePlayer(player) {
  const i = players.indexOf(player);
  if (i < 0) return;
  players.splice(i, 1);
  player.pickers.forEach((p) => p.destroy());
  player.li.remove();
  renumber();
  invalidate();
  const next = players[Math.min(i, players.length - 1)];
  (next ? next.li.querySelector("input") : document.getElementById("add-player")).focus();
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

/** Seat labels and the request paths a refusal's `field` names follow the order. */
function renumber() {
  const seats = shape.seats || {};
  players.forEach((p, i) => {
    const last = i === players.length - 1;
    const role = i === 0 && !last ? seats.first : last ? seats.last : null;
    p.li.querySelector(".seat-label").textContent = role ? `Seat ${i + 1}, ${role}` : `Seat ${i + 1}`;
    p.li.dataset.field = `players[${i}]`;
    for (const c of p.li.querySelectorAll(".control[data-key]")) c.dataset.field = `players[${i}].${c.dataset.key}`;
    p.li.querySelector('[data-action="up"]').disabled = i === 0;
    p.li.querySelector('[data-action="down"]').disabled = last;
  });
}

/**
 * Show each field only while the option it depends on is on, and its words for the options
 * ticked; a card field that is hidden, or of a player out of the hand, stops counting.
 */
function showWhen() {
  const allowed = allowedCards();
  for (const p of players) {
    const out = folded(p);
    for (const field of shape.player || []) {
      const wrap = p.li.querySelector(`.control[data-key="${field.key}"]`);
      wrap.hidden = !on(field.when);
      const other = Object.entries(field.label_when || {}).find(([option]) => on(option));
      if (field.kind === "cards") {
        p.labels.get(field.key).textContent = other ? other[1] : field.label;
        const picker = p.boxes.get(field.key);
        picker.setDisabled(out || wrap.hidden);
        picker.setAllowed(allowed);
      }
    }
  }
}

/** Anything typed after a result makes that result stale: say so above it. */
function invalidate() {
  closeTie();
  if (!resultBox.hidden) {
    resultBox.classList.add("is-stale");
    document.getElementById("result-stale").hidden = false;
  }
}

/** The preset, or the preset with the options set (an option left as it is is not sent). */
function rulesSpec() {
  const set = {};
  for (const { field, el } of options) put(set, field.key, valueOf(field, el));
  return Object.keys(set).length ? { preset: presetSelect.value, ...set } : presetSelect.value;
}

function buildRequest() {
  const out = { rules: rulesSpec() };
  for (const { field, el } of fields) put(out, field.key, valueOf(field, el));
  out.players = players.map((p) => {
    const player = {};
    const out_ = folded(p);
    for (const field of shape.player || []) {
      if (!on(field.when) || (out_ && field.skip_folded)) continue;
      let value = valueOf(field, p.boxes.get(field.key));
      if (field.kind === "cards" && out_ && field.cleared_folded) value = [];
      if (field.joins) {
        // Cards entered apart that the request also counts in another field (their own
        // field says which they are).
        player[field.joins] = (player[field.joins] || []).concat(value);
        if (!value.length) continue;
      }
      put(player, field.key, value);
    }
    return player;
  });
  return out;
}

function clearErrors() {
  clearFieldErrors(document);
  formError.textContent = "";
  tieError.textContent = "";
}

/** Show a refused request's words next to the control it names (or under the button). */
function showError(data, fallback) {
  const words = data && data.error ? data.error : "The companion refused this request.";
  const shown = data && data.field ? showFieldError(document, data.field, words) : null;
  if (shown) {
    // An option inside the closed "Options" box must be seen to be fixed.
    const details = shown.closest("details");
    if (details) details.open = true;
    const focusable = shown.querySelector("input, select, button");
    if (focusable) focusable.focus({ preventScroll: true });
    shown.scrollIntoView({ block: "center" });
    fallback.textContent = "Please check the field marked above.";
  } else {
    fallback.textContent = words;
  }
}

async function settle(request, slot) {
  clearErrors();
  const button = slot === tieError ? document.getElementById("tie-settle") : document.getElementById("settle");
  button.disabled = true;
  button.setAttribute("aria-busy", "true");
  try {
    const { ok, data } = await postJSON(form.dataset.settleUrl, request);
    if (!ok) {
      showError(data, slot);
      return;
    }
    const t = shape.tie;
    if (t && data.status === t.status) openTie(request, data, t);
    else showResult(request, data);
  } finally {
    button.disabled = false;
    button.removeAttribute("aria-busy");
  }
}

/** The tie's exchange the game declares: a card picker for each tied player. */
function openTie(request, data, t) {
  resultBox.hidden = true;
  closeTie();
  const names = data[t.players] || [];
  document.getElementById("tie-title").textContent = t.title;
  document.getElementById(`${TIE}-text`).textContent = t.text.replace("{names}", joinWords(names));
  const pickers = new Map();
  names.forEach((name, k) => {
    const i = request.players.findIndex((p) => p.name === name);
    const wrap = document.createElement("div");
    wrap.className = `control ${TIE}-player`;
    wrap.dataset.field = `players[${i}].${t.field}`;
    const label = document.createElement("span");
    label.className = "label";
    label.id = `tie-label-${k}`;
    label.textContent = t.label.replace("{name}", name);
    const root = document.createElement("div");
    root.id = `${TIE}-picker-${k}`;
    root.setAttribute("aria-labelledby", label.id);
    wrap.append(label, root, errorSlot());
    tieList.append(wrap);
    pickers.set(name, new CardPicker(root, { deck, pool, max: 1, tarot: tarotBox.checked, allowed: allowedCards() }));
  });
  tie = { request, pickers, field: t.field, adds: Boolean(t.adds) };
  tieBox.hidden = false;
  // A plain focus() would only just scroll the heading into view at the bottom edge of a
  // phone, with the pickers below it: bring the whole prompt to the top of the screen.
  document.getElementById(`${TIE}-h`).focus({ preventScroll: true });
  tieBox.scrollIntoView({ block: "start" });
}

function closeTie() {
  if (!tie) return;
  for (const p of tie.pickers.values()) p.destroy();
  tieList.replaceChildren();
  tieBox.hidden = true;
  tie = null;
}

function settleTie() {
  if (!tie) return;
  const request = structuredClone(tie.request);
  for (const p of request.players) {
    const picker = tie.pickers.get(p.name);
    // Where a tie's cards add up, each new card joins those sent before.
    if (picker) p[tie.field] = tie.adds ? (p[tie.field] || []).concat(picker.cards) : picker.cards;
  }
  settle(request, tieError);
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

/** Who won, in words: the answer's `winners`, else each pot's winners and amount. */
function winnersWords(result, data) {
  if (result.winners && Array.isArray(data[result.winners])) {
    const w = data[result.winners];
    return w.length ? `${joinWords(w)} ${w.length === 1 ? "wins" : "win"}` : "";
  }
  return (data.pots || []).filter((p) => p.winners.length).map((p) => (p.winners.length === 1
    ? `${p.winners[0]} wins ${p.amount}` : `${joinWords(p.winners)} split ${p.amount}`)).join("; ");
}

/** The answer in one sentence: the pots' words (settlement.js) where the game's answer has
 * pots, penalties and a sabacc pot in that shape; else who won, then who pays what. */
function sentence(result, data) {
  if (result.sentence === "pots") return describeSettlement(data);
  const parts = [winnersWords(result, data)];
  for (const p of data.penalties || []) if (p.amount) parts.push(`${p.name} pays ${p.amount}`);
  const words = parts.filter(Boolean).join("; ");
  return words ? `${words}.` : "";
}

/** A hand in words: its kind (the game's words) and the facts the game shows beside it. */
function handText(result, hand) {
  if (result.sentence === "pots") return handWords(hand);
  const facts = (result.facts || []).filter(([key]) => hand[key] !== null && hand[key] !== undefined)
    .map(([key, words]) => `${words} ${hand[key]}`);
  const kind = (result.kinds || {})[hand.kind] || hand.kind;
  return facts.length ? `${kind} (${facts.join(", ")})` : kind;
}

function showResult(request, data) {
  closeTie();
  const result = shape.result;
  document.getElementById("result-sentence").textContent = sentence(result, data);
  document.getElementById("payouts-amount-h").textContent = result.amount_label;
  const afterHead = document.getElementById("payouts-after-h");
  afterHead.textContent = result.after_label || "";
  afterHead.hidden = !result.after_label;
  const rows = data.hands.map((hand, i) => {
    const tr = document.createElement("tr");
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = hand.name;
    const sent = request.players[i] || {};
    const tieCards = shape.tie ? sent[shape.tie.field] || [] : [];
    const cards = (sent.cards || []).concat(tieCards).map((c) => cardName(deck, c, tarotBox.checked));
    const handCell = cell(handText(result, hand));
    if (cards.length && hand.kind !== "conceded") {
      const small = document.createElement("span");
      small.className = "muted cards-line";
      small.textContent = cards.join(", ");
      handCell.append(document.createElement("br"), small);
    }
    const amount = (data[result.amount] || {})[hand.name];
    const known = typeof amount === "number";
    const shown = !known ? "—" : result.signed ? signed(amount) : String(amount);
    const sign = result.signed && known ? (amount > 0 ? "plus" : amount < 0 ? "minus" : "") : "";
    tr.append(th, handCell, cell(shown, `num ${sign}`));
    if (result.after_label) {
      const before = sent[result.after];
      tr.append(cell(typeof before === "number" && known ? String(before + amount) : "—", "num"));
    }
    tr.dataset.name = hand.name;
    return tr;
  });
  document.querySelector("#payouts tbody").replaceChildren(...rows);
  const potAfter = document.getElementById("pot-after");
  potAfter.hidden = !result.pot_after;
  if (result.pot_after) {
    document.getElementById("pot-after-label").textContent = result.pot_after_label;
    document.getElementById("sabacc-after").textContent = String(data[result.pot_after]);
  }
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

/**
 * The chosen preset's game: a game of its own draws its form afresh, on its deck (the cards
 * entered so far belong to the other game); another preset of the same game keeps the form.
 */
async function showGame() {
  const g = game();
  if (shape && form.dataset.game === g.game) return;
  const next = await loadDeck(g.deck);
  if (game().game !== g.game) return; // the preset changed again meanwhile
  deck = next;
  pool = new CardPool(deck);
  form.dataset.game = g.game;
  drawForm(g);
  form.dataset.deck = deck.name;
}

async function start() {
  try {
    await showGame();
  } catch (err) {
    formError.textContent = `The card list could not be loaded: ${err.message}. Reload the page.`;
    return;
  }
  document.getElementById("add-player").addEventListener("click", () => {
    const p = addPlayer();
    p.li.querySelector("input").focus();
  });
  presetSelect.addEventListener("change", () => { showPreset(); showGame(); invalidate(); });
  form.addEventListener("change", invalidate);
  tarotBox.addEventListener("change", () => {
    for (const p of players) p.pickers.forEach((picker) => picker.setTarot(tarotBox.checked));
  });
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    settle(buildRequest(), formError);
  });
  document.getElementById("tie-settle").addEventListener("click", settleTie);
  showPreset();
  form.dataset.ready = "true";
}

start();
