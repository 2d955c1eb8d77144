// The host's pages: the start page (create a table, show its join QR code) and the host
// ("the Plutt") console of one table.
//
// Every change goes through the table API (/api/v1/tables/...) with the host token, which
// the start page keeps in this browser: localStorage["sabacc.host.<CODE>"]. The console
// follows the table's event stream and redraws from each fresh state. Player names are
// untrusted: they are only ever set as textContent.

import { clearFieldErrors, showFieldError } from "./api.js";
import { LiveTable, TapGuard, amountField, h as el, newKey, keepScreenOn, setCardNamer, actionWords, seatNames, gameWords, hasSabaccPot, namedSettlement, outOfGame, blockNames, capital } from "./live.js";
import { offerBlocks, blockMoves, commandOf, arming } from "./moves.js";
import { tableFacts, seatFacts, renderFacts, seatFactsLine } from "./facts.js";
import { loadDeck, CardPool, CardPicker, cardName, codeNamer, pageDeckName } from "./cardpicker.js";
import { showdown } from "./showdown.js";
import { resultWords } from "./settlement.js";

const TOKEN_PREFIX = "sabacc.host.";
/** The kinds of step the runtime's rounds have (a hand view's `do`); any other is a game's own. */
const RUNTIME_STEPS = new Set(["bet", "roll", "call", "draw"]);

/** The host token this browser keeps for table `code`, or null. */
export function hostToken(code) {
  try { return localStorage.getItem(TOKEN_PREFIX + code); } catch (err) { return null; }
}

function keepHostToken(code, token) {
  try { localStorage.setItem(TOKEN_PREFIX + code, token); } catch (err) { /* private mode: the page still works */ }
}

const OWNER_KEY = "sabacc-owner-token";

/** The server's owner token, from the page's fragment (kept for later visits) or kept before. */
function ownerToken() {
  const given = new URLSearchParams(location.hash.slice(1)).get("owner");
  try {
    if (given) {
      localStorage.setItem(OWNER_KEY, given);
      history.replaceState(null, "", location.pathname + location.search);
    }
    return given || localStorage.getItem(OWNER_KEY) || undefined;
  } catch (err) {
    return given || undefined;
  }
}

ownerToken();  // take the token out of the address bar at once

/** Call the API; never throws. @returns {Promise<{ok, status, data}>} */
async function call(method, url, body, token) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (err) {
    return { ok: false, status: 0, data: { error: "The companion could not be reached. Is the box still on?", field: null } };
  }
  let data;
  try { data = await response.json(); } catch (err) {
    data = { error: `The companion answered ${response.status} without a readable body.`, field: null };
  }
  return { ok: response.ok, status: response.status, data };
}

/** The words for a refused request. */
function refusal(result) {
  if (result.status === 409 && result.data.field === "version") {
    return "The table has moved on since this page last looked: check it and try again.";
  }
  return result.data.error || `Refused (${result.status}).`;
}

// -- the start page --------------------------------------------------------------------------

/** A whole number from an input; "" gives `empty`; anything else is an error in words. */
function whole(input, empty) {
  const raw = input.value.trim();
  if (raw === "") return { value: empty };
  if (!/^-?\d+$/.test(raw)) return { error: "Enter a whole number." };
  return { value: Number(raw) };
}

/**
 * The option fields of the chosen preset's game, drawn into `box` from its data-options JSON
 * (companion/rules/option_fields.py: which options each game takes, in its words, with the
 * preset's defaults). The start page and the console's dealer's choice both use it.
 * `show(preset)` draws that preset's fields; `read()` gives the options that differ from the
 * preset's defaults, or the errors found before anything is sent (path, words).
 */
export function optionFields(box, idPrefix) {
  const data = JSON.parse(box.dataset.options);
  let fields = [];
  const id = (name) => `${idPrefix}-${name}`;

  function control(f) {
    const wrap = el("div", { class: "control", dataset: { field: `rules.${f.name}` } });
    const start = f.value === undefined ? f.default : f.value;
    const hintId = f.empty || f.hint ? `${id(f.name)}-hint` : null;
    if (f.kind === "switch") {
      const input = el("input", { type: "checkbox", id: id(f.name), name: f.name });
      input.checked = Boolean(start);
      wrap.append(el("label", { class: "check", for: id(f.name) }, input, ` ${f.label}`));
    } else if (f.kind === "choice") {
      const select = el("select", { id: id(f.name), name: f.name },
        f.choices.map(([value, words]) => el("option", { value }, words)));
      select.value = String(start);
      wrap.append(el("label", { for: id(f.name) }, f.label), select);
    } else if (f.kind === "penalty") {
      const fixed = start !== data.hand_pot;
      const radio = ([value, words]) => el("label", { class: "check", for: id(`penalty-${value}`) },
        el("input", { type: "radio", id: id(`penalty-${value}`), name: `${idPrefix}-penalty`, value,
          checked: (value === data.hand_pot) !== fixed }), ` ${words}`);
      const amount = el("input", { type: "number", id: id(f.name), name: f.name, min: "0", step: "1",
        inputmode: "numeric", value: fixed ? String(start) : "" });
      const amountRow = el("div", { class: "penalty-amount", hidden: !fixed },
        el("label", { for: id(f.name) }, f.amount), amount);
      const set = el("fieldset", { class: "control", dataset: { field: `rules.${f.name}` } },
        el("legend", {}, f.label), el("div", { class: "row" }, f.choices.map(radio)), amountRow, el("p", { class: "field-error", "aria-live": "polite" }));
      for (const r of set.querySelectorAll('input[type="radio"]')) {
        r.addEventListener("change", () => { amountRow.hidden = box.querySelector(`#${CSS.escape(id(`penalty-${data.hand_pot}`))}`).checked; });
      }
      return set;
    } else {
      const input = el("input", { type: "number", id: id(f.name), name: f.name, min: String(f.minimum),
        max: f.maximum === null ? null : String(f.maximum), step: "1", inputmode: "numeric",
        "aria-describedby": hintId, required: !f.empty });
      input.value = start === null || start === undefined ? "" : String(start);
      wrap.append(el("label", { for: id(f.name) }, f.label), input);
    }
    if (hintId) wrap.append(el("p", { class: "hint", id: hintId }, f.empty || f.hint));
    wrap.append(el("p", { class: "field-error", "aria-live": "polite" }));
    return wrap;
  }

  function show(preset) {
    fields = data.fields[preset] || [];
    box.replaceChildren();
    for (const [group, words] of data.groups) {
      const mine = fields.filter((f) => f.group === group);
      if (!mine.length) continue;
      const grid = el("div", { class: "grid-2" });
      const set = el("fieldset", { class: "panel option-group", dataset: { group } }, el("legend", {}, words), grid);
      for (const f of mine) (f.kind === "whole" || f.kind === "choice" ? grid : set).append(control(f));
      box.append(set);
    }
  }

  function read() {
    const rules = {};
    const errors = [];
    for (const f of fields) {
      const input = box.querySelector(`#${CSS.escape(id(f.name))}`);
      let value;
      if (f.kind === "switch") value = input.checked;
      else if (f.kind === "choice") value = input.value;
      else if (f.kind === "penalty" && box.querySelector(`#${CSS.escape(id(`penalty-${data.hand_pot}`))}`).checked) value = data.hand_pot;
      else {
        const got = whole(input, f.empty ? null : undefined);
        if (got.error || got.value === undefined) {
          errors.push([`rules.${f.name}`, got.error || (f.kind === "penalty" ? "Enter the fixed penalty." : "This cannot be empty.")]);
          continue;
        }
        if (got.value !== null && (got.value < f.minimum || (f.maximum !== null && got.value > f.maximum))) {
          errors.push([`rules.${f.name}`, f.maximum === null ? `Enter a whole number of at least ${f.minimum}.` : `Enter a whole number from ${f.minimum} to ${f.maximum}.`]);
          continue;
        }
        value = got.value;
      }
      if (value !== f.default) rules[f.name] = value;
    }
    return { rules, errors };
  }

  return { show, read };
}


function startPage(form) {
  const field = (name) => form.elements.namedItem(name);
  const chipRows = Array.from(form.querySelectorAll(".chip-row"));
  const options = optionFields(document.getElementById("option-fields"), "opt");
  let defaults = {};

  function choose(radio) {
    defaults = JSON.parse(radio.dataset.defaults);
    options.show(radio.value);
    chipRows.forEach((row, i) => {
      const chip = defaults.chip_set[i];
      row.querySelector('[name="chip_name"]').value = chip ? chip.name : "";
      row.querySelector('[name="chip_value"]').value = chip ? String(chip.value) : "";
      row.querySelector('[name="chip_per_buy_in"]').value = chip ? String(chip.per_buy_in) : "";
    });
    document.getElementById("preset-rules-link").href = `/rules?preset=${encodeURIComponent(radio.value)}`;
    clearFieldErrors(form);
  }

  function settings() {
    const { rules: changed, errors } = options.read();
    const rules = { preset: form.querySelector('input[name="preset"]:checked').value, ...changed };
    const body = { rules };
    // The chip set: the rows with a name, in order. `chipIndex` maps the body's index back.
    const chips = [];
    const chipIndex = [];
    chipRows.forEach((row, i) => {
      const name = row.querySelector('[name="chip_name"]').value.trim();
      if (!name) return;
      const value = whole(row.querySelector('[name="chip_value"]'));
      const per = whole(row.querySelector('[name="chip_per_buy_in"]'), 0);
      if (value.error || value.value === undefined) { errors.push([`chip_set[${i}]`, `${name}: enter its value.`]); return; }
      if (per.error) { errors.push([`chip_set[${i}]`, `${name}: chips per buy-in must be a whole number.`]); return; }
      chipIndex.push(i);
      chips.push({ name, value: value.value, per_buy_in: per.value });
    });
    if (JSON.stringify(chips) !== JSON.stringify(defaults.chip_set)) body.chip_set = chips;
    const seats = whole(field("max_seats"), 8);
    if (seats.error) errors.push(["max_seats", seats.error]);
    else if (seats.value !== 8) body.max_seats = seats.value;
    // A sabacc pot carried from this table's last session opens the new one (empty: none).
    const pot = whole(field("sabacc_pot"), 0);
    if (pot.error || pot.value < 0) errors.push(["sabacc_pot", "The carried sabacc pot is a whole number of credits, 0 or more."]);
    else if (pot.value > 0) body.sabacc_pot = pot.value;
    return { body, errors, chipIndex };
  }

  function showError(path, message) {
    if (!showFieldError(form, path, message)) document.getElementById("start-error").textContent = message;
  }

  for (const radio of form.querySelectorAll('input[name="preset"]')) {
    radio.addEventListener("change", () => choose(radio));
  }
  choose(form.querySelector('input[name="preset"]:checked'));

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearFieldErrors(form);
    document.getElementById("start-error").textContent = "";
    const { body, errors, chipIndex } = settings();
    if (errors.length) {
      for (const [path, message] of errors) showError(path, message);
      return;
    }
    const button = document.getElementById("create-table");
    button.disabled = true;
    // Opened from the link serve prints (…/host#owner=TOKEN): the table is the owner's, and
    // takes the scrambler. The token stays in this browser, never in an address sent on.
    let result = await call("POST", "/api/v1/tables", body, ownerToken());
    if (result.status === 403 && result.data.field === "token") {
      // A token kept from another server (or an older data folder): a guest's table instead.
      try { localStorage.removeItem(OWNER_KEY); } catch (err) { /* nothing kept */ }
      result = await call("POST", "/api/v1/tables", body);
    }
    button.disabled = false;
    if (!result.ok) {
      // A chip's path names its place in the body; show it on the row the host typed it in.
      const path = String(result.data.field || "").replace(/^chip_set\[(\d+)\]/, (m, i) => `chip_set[${chipIndex[Number(i)] ?? i}]`);
      showError(path, refusal(result));
      return;
    }
    created(result.data);
  });

  function created(data) {
    keepHostToken(data.code, data.host_token);
    const code = data.code;
    document.getElementById("created-code").textContent = code;
    const qr = document.getElementById("join-qr");
    qr.src = `/api/v1/tables/${encodeURIComponent(code)}/qr.svg`;
    qr.alt = `QR code to join table ${code}: ${data.join_url}`;
    const link = document.getElementById("join-url");
    link.href = data.join_url;
    link.textContent = data.join_url;
    document.getElementById("console-link").href = `/t/${code}/host`;
    document.getElementById("display-link").href = `/t/${code}/display#key=${data.display_key}`;
    document.getElementById("rules-link").href = `/t/${code}/rules`;
    document.getElementById("audit-link").href = `/t/${code}/audit`;
    document.getElementById("history-link").href = `/t/${code}/history`;
    document.getElementById("host-token").textContent = data.host_token;
    form.hidden = true;
    const panel = document.getElementById("created");
    panel.hidden = false;
    panel.focus();
  }
  document.getElementById("print-qr").addEventListener("click", () => window.print());
  listMyTables();
  showDataHealth();
}

/** Damaged tables and a filling disk (GET /api/v1/health), in words, before anything else. */
async function showDataHealth() {
  const result = await call("GET", "/api/v1/health");
  if (!result.ok) return;
  const lines = result.data.damaged.map((d) => d.words);
  const disk = result.data.disk || {};
  if (disk.free_mb !== null && disk.free_mb !== undefined && disk.free_mb < disk.min_free_mb_for_new_tables) {
    lines.push(`The disk has ${disk.free_mb} MB free: new tables need ${disk.min_free_mb_for_new_tables} MB. ` +
      "Free some space on the box.");
  }
  if (!lines.length) return;
  document.getElementById("data-health-list").replaceChildren(...lines.map((words) => el("li", { text: words })));
  document.getElementById("data-health").hidden = false;
}

/** The tables on this box whose host token this browser keeps: back to their consoles. */
async function listMyTables() {
  const mine = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key && key.startsWith(TOKEN_PREFIX)) mine.push(key.slice(TOKEN_PREFIX.length));
    }
  } catch (err) { return; }
  if (!mine.length) return;
  const result = await call("GET", "/api/v1/tables");
  if (!result.ok) return;
  const here = result.data.tables.filter((t) => mine.includes(t.code));
  if (!here.length) return;
  document.getElementById("my-tables-list").replaceChildren(...here.map((t) => el("li", {},
    el("a", { href: `/t/${t.code}/host`, text: `Table ${t.code}: host console` }),
    el("span", { class: "muted", text: ` (${t.seats} seat${t.seats === 1 ? "" : "s"})` }))));
  document.getElementById("my-tables").hidden = false;
}

// -- the host console ------------------------------------------------------------------------

// The stages of a hand in words: the game's own where its rules give them (`stage_words`),
// else these (a tie's stage in the game's word for a tie).
const STAGES = {
  play: "playing", final_roll: "the last roll", reveal: "the reveal: everyone enters their hand",
  settled: "settled",
};
const stageWords = (stage, rules) => ((rules && rules.stage_words) || {})[stage]
  || (stage === blockNames("tie").stage ? gameWords().tie : STAGES[stage] || stage.replace(/_/g, " "));

function consolePage(root) {
  const code = root.dataset.code;
  const base = `/api/v1/tables/${encodeURIComponent(code)}`;
  let token = hostToken(code);
  let state = null;
  const rows = new Map(); // seat id -> its <li> in the seat list
  let pendingSeat = null; // a seat the console added, chosen in "Play for a seat" once it shows
  const $ = (id) => document.getElementById(id);

  const names = () => {
    const out = {};
    if (!state) return out;
    for (const d of state.departed || []) out[d.seat] = d.name;
    for (const s of state.seats) out[s.seat] = s.name;
    return out;
  };
  const who = (seat) => (seat === "host" ? "the host" : seat === "scrambler" ? "the scrambler"
    : seat === "guest" || seat == null ? "a guest" : names()[seat] || seat);

  /** Send a command (live.js: with this page's version and an idempotency key); a refusal is
   * shown in words in `slot` (a .field-error, or an element holding one). */
  async function send(entry, slot) {
    const errorEl = slot && (slot.classList.contains("field-error") ? slot : slot.querySelector(".field-error"));
    if (errorEl) errorEl.textContent = "";
    const result = await live.send(entry);
    if (!result.ok) {
      if (errorEl) errorEl.textContent = result.words;
      return null;
    }
    return result.data;
  }

  // -- drawing --

  function render(next) {
    if (!next || (state && next.version < state.version)) return;
    state = next;
    const hand = state.hand && state.hand.stage !== "settled" ? state.hand : null;
    $("hand-no").textContent = state.hand ? String(state.hand.no) : "—";
    // The last player's choice (show or keep the hand hidden), in the game's words ("everyone else folded: …").
    $("hand-stage").textContent = hand && hand.stage === "show"
      ? `everyone else ${gameWords().folded}: the last player shows their hand or keeps it hidden`
      : hand ? stageWords(hand.stage, state.rules) : state.ended ? "the session has ended" : "between hands";
    let turn = "—";
    // A step of a game's own (not one of the runtime's kinds: bet, roll, call, draw) is said in
    // the game's turn words ("Round 1, turn 2: Ana: draw or stand.").
    if (hand && hand.do && !RUNTIME_STEPS.has(hand.do) && hand.words) turn = hand.words;
    else if (hand && hand.to_act) turn = `${who(hand.to_act)} (betting)`;
    else if (hand && hand.turn) turn = `${who(hand.turn)}${hand.do ? `: ${hand.do === "draw" ? gameWords().draw_step : hand.do}` : ""}`;
    else if (hand && hand.roller) turn = `${who(hand.roller)}: roll`;
    else if (hand && hand.stage === "show" && hand.settlement) turn = `${who(hand.settlement.winner)}: show or keep the hand hidden`;
    else if (hand && hand.words) turn = hand.words; // the reveal, a tie drawn again: the engine's words
    $("hand-turn").textContent = turn;
    $("hand-pot").textContent = String(hand ? hand.hand_pot : 0);
    renderFacts($("hand-game-facts"), tableFacts(state));
    renderDiscardPile(hand);
    renderResult();
    renderDiceEntry(hand);
    $("sabacc-pot").textContent = String(state.sabacc_pot);
    for (const id of ["sabacc-pot-term", "sabacc-pot"]) $(id).hidden = !hasSabaccPot(state);
    const legal = new Set(state.host_legal || []);
    for (const id of ["start-hand", "host-roll", "host-no-call"]) {
      const button = $(id);
      button.disabled = !legal.has(button.dataset.command);
    }
    // In the game's words: what rolls; a game without dice offers no roll, a game nobody calls
    // in no "Nobody calls".
    $("host-roll").hidden = !state.rules.dice;
    if (state.rules.dice) $("host-roll").textContent = `Roll ${state.rules.dice.name}`;
    $("host-no-call").hidden = !(state.rules.ending && state.rules.ending.by_call);
    renderSeats();
    renderSeatPlay();
    renderItems();
    if (state.ended) showStandings();
    $("end-session").hidden = state.ended || !$("end-session-confirm").hidden;
    if (state.ended) $("end-session-confirm").hidden = true;
  }

  /** The settled hand's rows, as the phones and the display show them (its cards, a blind
   * draw's cards, why each hand won or lost), until the next hand starts. */
  function renderResult() {
    const hand = state.hand;
    const settled = Boolean(hand && hand.stage === "settled" && hand.settlement && !state.ended);
    $("hand-result-panel").hidden = !settled;
    if (!settled) { $("hand-result").replaceChildren(); return; }
    const names = seatNames(state);
    let words = "";
    try { words = resultWords(hand.settlement, names, namedSettlement); } catch (err) { words = ""; }
    $("hand-result").replaceChildren(el("p", { class: "result-sentence" }, words), showdown(hand.settlement, hand.players, seatNames(state),
      (c) => (deck ? cardName(deck, c) : c), { caption: `Hand ${hand.no}: the result` }));
  }

  function renderSeats() {
    const list = $("seat-list");
    $("end-sabacc-pot").textContent = String(state.sabacc_pot);
    $("sabacc-pot-choice").hidden = !state.sabacc_pot; // nothing to split or carry
    const seen = new Set();
    state.seats.forEach((seat, i) => {
      seen.add(seat.seat);
      let li = rows.get(seat.seat);
      if (!li) { li = seatRow(seat.seat); rows.set(seat.seat, li); }
      // Move a row only when it is out of place: moving it would take the focus out of a field
      // the host is typing in whenever a phone acts.
      if (list.children[i] !== li) list.insertBefore(li, list.children[i] || null);
      const badges = [];
      if (state.dealer === seat.seat) badges.push("dealer");
      // A player out of a game played to a winner plays none of it any more.
      if (outOfGame(state, seat.seat)) badges.push("out");
      else if (seat.playing) badges.push("in the hand");
      if (seat.sitting_out) badges.push("sitting out");
      li.querySelector(".seat-name").textContent = seat.name;
      li.querySelector(".seat-stack").textContent = `${seat.stack} credits`;
      li.querySelector(".seat-badges").textContent = badges.join(" · ");
      const facts = seatFactsLine(seatFacts(state, seat.seat));
      li.querySelector(".seat-game-facts").replaceChildren(...(facts ? [...facts.childNodes] : []));
      li.querySelector('[data-act="up"]').disabled = i === 0;
      li.querySelector('[data-act="down"]').disabled = i === state.seats.length - 1;
      li.querySelector('[data-act="sit"]').textContent = seat.sitting_out ? "Sit in" : "Sit out";
      for (const b of li.querySelectorAll("[data-label]")) b.setAttribute("aria-label", `${b.dataset.label} ${seat.name}`);
    });
    for (const [sid, li] of rows) if (!seen.has(sid)) { li.remove(); rows.delete(sid); }
    $("seats-empty").hidden = state.seats.length > 0;
    const signature = state.seats.map((s) => `${s.seat}:${s.name}`).join("|");
    for (const select of document.querySelectorAll(".seat-select")) {
      if (select.dataset.seats === signature) continue; // unchanged: leave an open list alone
      select.dataset.seats = signature;
      const keep = select.value;
      const options = state.seats.map((s) => el("option", { value: s.seat, text: s.name }));
      // A house dealer deals and does not play: the dealer can be "the house", no seat.
      if (select.id === "dealer-seat" && root.dataset.houseDealer) options.unshift(el("option", { value: "", text: "the house" }));
      select.replaceChildren(...options);
      if (keep && state.seats.some((s) => s.seat === keep)) select.value = keep;
      else if (select.id === "dealer-seat" && state.dealer) select.value = state.dealer;
    }
    if (pendingSeat && state.seats.some((x) => x.seat === pendingSeat)) {
      $("play-seat").value = pendingSeat; // a seat the console just added: it plays it
      pendingSeat = null;
      seatPlayKey = null;
    }
  }

  function seatRow(sid) {
    const free = Number(root.dataset.buyIn) === 0;
    const err = el("p", { class: "field-error", "aria-live": "polite" });
    const buyAmount = free ? el("input", { type: "number", min: 1, step: 1, inputmode: "numeric", class: "amount", "data-label": "Buy-in credits for" }) : null;
    const cashAmount = el("input", { type: "number", min: 1, step: 1, inputmode: "numeric", class: "amount", placeholder: "all", "data-label": "Credits to cash out for" });
    const button = (act, text, label) => el("button", { type: "button", class: "button small", "data-act": act, "data-label": label, text });
    const li = el("li", { class: "seat-row", "data-seat": sid },
      el("div", { class: "seat-head" },
        el("strong", { class: "seat-name" }), " ",
        el("span", { class: "seat-stack" }), " ",
        el("span", { class: "seat-badges muted" }), " ",
        el("span", { class: "seat-game-facts" })),
      el("div", { class: "row seat-controls" },
        button("up", "↑", "Move up:"), button("down", "↓", "Move down:"),
        button("sit", "Sit out", "Sit out or in:"),
        el("span", { class: "inline-control" }, buyAmount, button("buy", free ? "Buy in" : `Buy in (${root.dataset.buyIn})`, "Buy in:")),
        el("span", { class: "inline-control" }, cashAmount, button("cash", "Cash out", "Cash out:")),
        button("move", "New phone", "Move to a new phone:")),
      err);
    li.addEventListener("click", async (event) => {
      const b = event.target.closest("button[data-act]");
      if (!b) return;
      const seat = state.seats.find((s) => s.seat === sid);
      if (!seat) return;
      const order = state.seats.map((s) => s.seat);
      const i = order.indexOf(sid);
      if (b.dataset.act === "up" || b.dataset.act === "down") {
        const j = b.dataset.act === "up" ? i - 1 : i + 1;
        [order[i], order[j]] = [order[j], order[i]];
        if (await send({ type: "reorder", order }, err)) {
          const again = li.querySelector(`[data-act="${b.dataset.act}"]`);
          (again.disabled ? li.querySelector(".seat-name") : again).focus?.();
        }
      } else if (b.dataset.act === "sit") {
        await send({ type: seat.sitting_out ? "sit_in" : "sit_out", seat: sid }, err);
      } else if (b.dataset.act === "buy") {
        const entry = { type: "buy_in", seat: sid };
        if (buyAmount) {
          if (!/^\d+$/.test(buyAmount.value.trim())) { err.textContent = "Enter the credits to buy in for."; return; }
          entry.amount = Number(buyAmount.value);
        }
        if (await send(entry, err) && buyAmount) buyAmount.value = "";
      } else if (b.dataset.act === "cash") {
        const entry = { type: "cash_out", seat: sid };
        if (cashAmount.value.trim()) {
          if (!/^\d+$/.test(cashAmount.value.trim())) { err.textContent = "Enter whole credits, or leave it empty for the whole stack."; return; }
          entry.amount = Number(cashAmount.value);
        }
        const done = await send(entry, err);
        const ev = done && done.events.find((e) => e.type === "cashed_out");
        if (ev) {
          cashAmount.value = "";
          const items = (ev.items || []).filter((x) => x.seat === sid).map((x) => `${x.item} (${x.value})`);
          $("cash-result").textContent = `${seat.name} cashes out ${ev.amount}: pay ${ev.words}.`
            + (items.length ? ` Items ${seat.name} staked, which you may hand over instead: ${items.join(", ")}.` : "");
        }
      } else if (b.dataset.act === "move") {
        err.textContent = "";
        const result = await call("POST", `${base}/seats/${encodeURIComponent(sid)}/token`, {}, token);
        if (!result.ok) { err.textContent = refusal(result); return; }
        showMove(seat.name, sid, result.data.token);
      }
    });
    return li;
  }

  function showMove(name, sid, seatToken) {
    const link = `${location.origin}/t/${code}/join#seat=${encodeURIComponent(sid)}&token=${encodeURIComponent(seatToken)}`;
    $("move-name").textContent = name;
    const a = $("move-link");
    a.href = link;
    a.textContent = link;
    const img = $("move-qr");
    img.src = `/t/${encodeURIComponent(code)}/seat-qr.svg?seat=${encodeURIComponent(sid)}&token=${encodeURIComponent(seatToken)}`;
    img.alt = `QR code that moves ${name} to a new phone`;
    const panel = $("move-result");
    panel.hidden = false;
    panel.focus();
  }

  function renderItems() {
    const list = $("item-list");
    const items = state.items || [];
    list.replaceChildren(...items.map((x) => el("li", { text: `Hand ${x.hand}: ${who(x.seat)} staked ${x.item}, valued ${x.value} credits` })));
    if (!items.length) list.append(el("li", { class: "muted", text: "None." }));
  }

  async function showStandings() {
    const box = $("standings");
    const result = await call("GET", `/t/${encodeURIComponent(code)}/standings.json`);
    if (!result.ok) return;
    const body = box.querySelector("tbody");
    body.replaceChildren(...result.data.standings.map((r) => {
      const net = r.net > 0 ? `+${r.net}` : String(r.net);
      const num = (v, extra = "") => el("td", { class: `num ${extra}`.trim(), text: String(v) });
      return el("tr", { "data-seat": r.seat },
        el("th", { scope: "row", text: r.name }),
        num(r.bought_in), num(r.items), num(r.adjusted), num(r.cashed_out), num(r.stack),
        num(net, r.net > 0 ? "plus" : r.net < 0 ? "minus" : ""), num(r.sabacc_share || "—"),
        el("td", { class: "chips-words", text: r.chips.words }));
    }));
    $("carried-note").hidden = !state.carried_sabacc_pot;
    $("carried-note").textContent = state.carried_sabacc_pot
      ? `The sabacc pot (${state.carried_sabacc_pot}) is carried: make this table's next session with it as its opening sabacc pot.`
      : "";
    box.hidden = false;
  }

  // -- playing for a seat without a phone --
  //
  // The console asks for the chosen seat's legal moves (GET .../seats/<seat>/legal, host only)
  // at each update, shows them as the phone's big buttons, marked "for Han", and sends them
  // with `seat`. (One seat's, not every seat's in every host view: each costs trial moves.)

  // The moves the console draws itself, and the building blocks' the game uses (the view's
  // blocks: a call step's call and pass, the kept cards', a tie's card); any other (a game's it
  // does not know) is drawn from its offer by moves.js. Words, styles and second taps are the
  // server's (offers.py).
  const KNOWN = ["check", "call", "bet", "raise", "all_in", "fold", "roll", "draw", "no_show", "reveal", "show"];
  const known = () => new Set([...KNOWN, ...blockMoves(state.blocks)]);
  const keptNames = () => (state.blocks || {}).kept || {}; // {} where the game keeps no cards face up
  let seatPlayKey = null;
  const tapGuard = new TapGuard(() => [$("seat-play")]);
  let sending = false;
  let deck = null;
  let cardsPicker = null;
  let cardsFor = null;
  // A game without cards to pick has no deck: its cards are said in its own words.
  if (pageDeckName()) loadDeck().then((d) => { deck = d; setCardNamer(codeNamer(d)); seatPlayKey = null; if (state) renderSeatPlay(); });

  let topPicker = null;

  /** Where the discard pile lies face up: the host's entry of a card turned up (the top card is
   * the game's fact, in the hand panel). */
  function renderDiscardPile(hand) {
    if (!$("discard-panel")) return;
    $("discard-top-send").disabled = !hand; // at any stage of a running hand: after the last round's shift too
    if (!topPicker && deck) topPicker = new CardPicker($("discard-top-picker"), { deck, max: 1, label: "The card turned up" });
  }

  function cardWords(code) {
    const c = deck && deck.byCode.get(code);
    return c ? c.name : code;
  }

  // -- dice rolled at the table, entered by hand (the API takes the host's dice) --

  const diceTable = JSON.parse(root.dataset.diceTable || "{}"); // trigger -> [dice, sides]
  let diceKey = null;

  /** The roll's entry when a roll is due: one choice per die, each face in the game's words
   * (the symbols of its dice, or the scrambler's numbers). */
  function renderDiceEntry(hand) {
    const wrap = $("dice-entry");
    if (!wrap) return;
    const [count, sides] = diceTable[state.rules.scrambler_trigger] || [0, 0];
    const due = Boolean(hand && count && (hand.stage === "final_roll" || (hand.stage === "play" && hand.do === "roll")));
    wrap.hidden = !due;
    const key = JSON.stringify([state.rules.scrambler_trigger, count, sides, state.rules.dice]);
    if (!due || key === diceKey) return;
    diceKey = key;
    const faces = (state.rules.dice && state.rules.dice.faces) || [];
    const name = (state.rules.dice && state.rules.dice.name) || "the dice";
    $("dice-entry-h").textContent = `Rolled at the table: enter ${name}`;
    const selects = [];
    for (let i = 0; i < count; i++) {
      const id = `dice-entry-${i + 1}`;
      const options = Array.from({ length: sides }, (_, k) => el("option", { value: String(k + 1), text: faces[k] || String(k + 1) }));
      const select = el("select", { id, class: "die-select", dataset: { die: String(i + 1) } }, el("option", { value: "", text: "—" }), ...options);
      selects.push(el("div", { class: "control" }, el("label", { for: id, text: count > 1 ? `Die ${i + 1}` : "The die" }), select));
    }
    $("dice-entry-dice").replaceChildren(...selects);
  }

  if ($("dice-entry-send")) {
    $("dice-entry-send").addEventListener("click", async () => {
      const chosen = Array.from($("dice-entry-dice").querySelectorAll("select"), (x) => x.value);
      if (!chosen.length || chosen.some((v) => !v)) {
        $("dice-entry").querySelector(".field-error").textContent = "Choose every die's face first.";
        return;
      }
      if (await send({ type: "roll", dice: chosen.map(Number) }, $("dice-entry"))) {
        for (const x of $("dice-entry-dice").querySelectorAll("select")) x.value = "";
      }
    });
  }

  if ($("discard-top-send")) {
    $("discard-top-send").addEventListener("click", async () => {
      const card = topPicker && topPicker.cards[0];
      if (!card) { $("discard-panel").querySelector(".field-error").textContent = "Pick the card first."; return; }
      if (await send({ type: "discard_top", card }, $("discard-panel"))) topPicker.setCards([]);
    });
  }

  function seatButton(sid, label, entry, kind = "", fill = null, confirm = false) {
    const key = JSON.stringify([sid, entry]);
    const b = el("button", { type: "button", class: `button big ${kind}`.trim(), dataset: { action: entry.type } }, label);
    if (confirm) arming.show(key, b, label); // still armed when drawn again between the taps
    b.addEventListener("click", async (event) => {
      if (tapGuard.ignores(event, sending)) return;
      if (confirm && !arming.isArmed(key)) {
        arming.arm(key, b, label);
        tapGuard.arm();
        return;
      }
      arming.clear();
      sending = true;
      // The host rolls and closes the call window as the host: those commands name no seat.
      const asHost = new Set(["roll", ...blockMoves(state.blocks, { call: ["pass"] })]);
      let body = asHost.has(entry.type) ? entry : { ...entry, seat: sid };
      if (fill) {
        body = fill(body); // a move that discards names its card (the face-up discard pile)
        if (!body) { sending = false; return; }
      }
      const done = await send(body, $("seat-play-error"));
      sending = false;
      tapGuard.arm();
      // The card a move discarded lies on the pile now: the next move starts from an empty picker.
      if (done && fill && cardsPicker) cardsPicker.setCards([]);
      if (done) seatPlayKey = null;
      else if (b.isConnected) { b.textContent = label; b.classList.remove("armed"); } // refused: one tap arms it again
    });
    return b;
  }

  /** An amount offer's buttons (its usual amounts, in the server's words) and, where they
   * leave amounts out, a stepped amount within its range. */
  function amountMoves(sid, name, l, out) {
    const input = l.inputs[0];
    const shortcuts = input.shortcuts || []; // a game may offer no usual amounts: the field alone
    for (const [n, words] of shortcuts) out.push(seatButton(sid, `${words} for ${name}`, { type: l.type, [input.field]: n }));
    if (shortcuts.length < input.max - input.min + 1) {
      out.push(amountField({
        id: `seat-amount-${l.type}`, label: `${input.words} for ${name}`, lo: input.min, hi: input.max, verb: l.words,
        guard: (e) => tapGuard.ignores(e, sending),
        onSend: async (n) => {
          sending = true;
          const done = await send({ type: l.type, [input.field]: n, seat: sid }, $("seat-play-error"));
          sending = false;
          if (done) seatPlayKey = null;
          return Boolean(done);
        },
      }));
    }
  }

  let legalAsked = 0;
  async function renderSeatPlay() {
    const select = $("play-seat");
    const sid = select.value || (state.seats[0] && state.seats[0].seat);
    if (!sid) return;
    const asked = ++legalAsked;
    // The seat's moves are being asked for: they may be drawn again in a moment (screen
    // readers wait for them; so do the browser tests before a tap).
    $("seat-play").setAttribute("aria-busy", "true");
    const got = await call("GET", `${base}/seats/${encodeURIComponent(sid)}/legal`, undefined, token);
    if (asked !== legalAsked) return; // a newer update asked again meanwhile (it ends the wait)
    $("seat-play").removeAttribute("aria-busy");
    if (!got.ok) return;
    const seat = state.seats.find((s) => s.seat === sid);
    const keptTypes = blockMoves(state.blocks, { kept: ["add", "remove"] });
    const keptMoves = got.data.legal.filter((l) => keptTypes.has(l.type));
    const legal = got.data.legal.filter((l) =>
      !["sit_out", "sit_in", "leave", "cash_out", "buy_in"].includes(l.type) && !keptTypes.has(l.type));
    renderSeatKept(sid, seat, keptMoves);
    const key = JSON.stringify([sid, legal, Boolean(deck)]);
    if (key === seatPlayKey) return;
    seatPlayKey = key;
    $("seat-play-for").textContent = seat ? `Moves for ${seat.name}` : "";
    const out = [];
    const name = seat ? seat.name : "";
    let cards = null;
    const kind = (l) => (l.style === "primary" || l.style === "danger" ? l.style : "");
    const others = [];
    const knows = known();
    const blocks = blockMoves(state.blocks); // a building block's move without inputs: a plain button
    for (const l of legal) {
      if (["check", "call", "all_in", "fold", "roll"].includes(l.type)
          || (blocks.has(l.type) && !(l.inputs || []).length)) {
        out.push(seatButton(sid, `${l.words} for ${name}`, commandOf(l), kind(l), null, l.confirm));
      }
      else if (l.type === "bet" || l.type === "raise") amountMoves(sid, name, l, out);
      // The console says this of the seat, not as the seat would ("Keep my hand hidden").
      else if (l.type === "draw") {
        if (l.card && !cards) cards = { type: "discard", action: l.action };
        out.push(seatButton(sid, `${l.words} for ${name}`, { type: "draw", action: l.action },
          kind(l), l.card ? withDiscard : null, l.confirm));
      } else if (l.type === "no_show") out.push(seatButton(sid, `Keep ${name}'s hand hidden`, { type: "no_show" }));
      else if (l.type === "reveal" || l.type === blockNames("tie").move || l.type === "show") cards = l;
      else if (!knows.has(l.type)) others.push(l);
    }
    // A move of a game the console does not know, drawn from its offer, for the seat.
    out.push(...offerBlocks(others, {
      send: async (body, control) => {
        sending = true;
        const done = await send(body, control.closest("[data-error-slot]") || $("seat-play-error"));
        sending = false;
        tapGuard.arm();
        if (done) seatPlayKey = null;
        return Boolean(done);
      },
      forSeat: { seat: sid, name }, deck, guard: (e) => tapGuard.ignores(e, sending), idPrefix: "seat-amount-",
    }));
    $("seat-moves").replaceChildren(...(out.length ? out : [el("p", { class: "muted", text: cards ? "" : `Nothing for ${name} to do right now.` })]));
    tapGuard.rebuilt();
    // The reveal (or a tie's card) for the seat: the host enters the cards it shows.
    $("seat-cards-wrap").hidden = !(cards && deck);
    if (cards && deck) {
      // A tie's draw that tied again is a new entry: its picker starts empty; a discard
      // belongs to one turn phase: another one (the next round's) starts empty.
      const hand = state.hand || {};
      const job = `${sid}:${cards.type}:${hand.no}:${cards.draw || 1}${cards.type === "discard" ? `:${hand.round}:${hand.phase}` : ""}`;
      if (cardsFor !== job) {
        if (cardsPicker) cardsPicker.destroy();
        const whole = cards.type === "reveal" || cards.type === "show";
        const max = whole ? cards.hand_size : 1;
        // The cards of the hand already in (laid face up): the offer's cards input says which.
        const inAlready = (cards.inputs && cards.inputs[0] && cards.inputs[0].locked) || [];
        cardsPicker = new CardPicker($("seat-cards"), {
          deck, pool: new CardPool(deck), max, locked: inAlready, cards: inAlready,
          lockedWords: `${name}'s ${keptNames().words}`,
          label: whole ? `${name}'s hand` : cards.type === "discard" ? `The card ${name} discards`
            : `${name}'s ${gameWords().tie_card}${cards.draw > 1 ? ` (tied again: draw ${cards.draw})` : ""}`,
        });
        cardsFor = job;
      }
      // A discarding move takes its card from this picker when its button is tapped.
      $("seat-cards-send").hidden = cards.type === "discard";
      $("seat-cards-send").textContent = cards.type === "reveal" || cards.type === "show" ? `Enter ${name}'s hand` : `Enter ${name}'s card`;
      $("seat-cards-send").dataset.type = cards.type;
    }
  }

  // The cards the seat lays face up, as its phone would offer them (a seat without a phone too).
  let keptPicker = null;
  let keptFor = null;
  let keptAdding = null; // the offer putting a card face up for the seat, while there is one
  function renderSeatKept(sid, seat, keptMoves) {
    const names = keptNames();
    const removing = keptMoves.find((l) => l.type === names.remove);
    const hand = state.hand && state.hand.stage !== "settled" ? state.hand : null;
    const player = hand ? hand.players.find((p) => p.seat === sid) : null;
    const held = player && names.field ? player[names.field] : null;
    // Where the seat has cards to keep face up, or moves to keep one or take one back (a game
    // without such cards has neither).
    const show = Boolean(held && deck && (keptMoves.length || held.length));
    $("seat-kept-wrap").hidden = !show;
    if (!show) return;
    $("seat-kept-words").textContent = capital(names.words);
    $("seat-kept-name").textContent = seat ? seat.name : sid;
    $("seat-kept-list").replaceChildren(...(held.length ? held.map((c) => {
      const li = el("li", { class: "card-chip" }, el("span", { text: cardWordsOf(c) }));
      if (removing) {
        const b = el("button", { type: "button", class: "button small", text: removing.words, "aria-label": `${removing.words}: ${cardWordsOf(c)}` });
        b.addEventListener("click", () => send(commandOf(removing, { card: c }, { seat: sid }), $("seat-kept-wrap")));
        li.append(b);
      }
      return li;
    }) : [el("li", { class: "muted", text: "Empty." })]));
    const adding = keptMoves.find((l) => l.type === names.add);
    keptAdding = adding || null;
    const canAdd = Boolean(adding);
    if (adding) $("seat-kept-add").textContent = adding.words; // as the seat's phone says it
    $("seat-kept-add").hidden = !canAdd;
    $("seat-kept-picker").hidden = !canAdd;
    if (canAdd && keptFor !== sid) {
      if (keptPicker) keptPicker.destroy();
      keptPicker = new CardPicker($("seat-kept-picker"), { deck, max: 1, label: `${seat ? seat.name : sid}: ${adding.inputs[0].words}` });
      keptFor = sid;
    }
  }
  const cardWordsOf = (c) => (deck ? codeNamer(deck)(c) : c);
  $("seat-kept-add").addEventListener("click", async () => {
    const card = keptPicker && keptPicker.cards[0];
    const slot = $("seat-kept-wrap").querySelector(".field-error");
    if (!card) { slot.textContent = "Pick the card first."; return; }
    if (!keptAdding) return; // no longer offered: the next update hides the button
    if (await send(commandOf(keptAdding, { card }, { seat: $("play-seat").value }), $("seat-kept-wrap"))) keptPicker.clear();
  });

  /** A discarding move played for a seat, with the card picked for it (or null: pick one). */
  function withDiscard(entry) {
    const card = cardsPicker && cardsPicker.cards[0];
    // Said under the seat's moves (the panel's first error slot is that of the cards laid face up).
    if (!card) { $("seat-play-error").textContent = "Pick the card the seat discards first."; return null; }
    return { ...entry, card };
  }

  $("play-seat").addEventListener("change", () => { seatPlayKey = null; renderSeatPlay(); });
  $("seat-cards-send").addEventListener("click", async () => {
    if (!cardsPicker) return;
    const sid = $("play-seat").value;
    const type = $("seat-cards-send").dataset.type;
    const entry = type === "reveal" || type === "show" ? { type, cards: cardsPicker.cards, seat: sid } : { type, card: cardsPicker.cards[0], seat: sid };
    if (await send(entry, $("seat-play-error"))) { seatPlayKey = null; }
  });
  keepScreenOn();

  // -- the latest entries and undo --

  function entryWords(e) {
    if (e.undoes) return `counter-entry: undoes entry ${e.undoes}`;
    const body = { ...e.body };
    delete body.type;
    if (body.seat) body.seat = who(body.seat);
    if (Array.isArray(body.order)) body.order = body.order.map(who).join(", ");
    // A value of its own fields (change_rules' rules) is said field by field, not "[object Object]".
    const said = (v) => Array.isArray(v) ? v.join(" ")
      : v && typeof v === "object" ? Object.entries(v).map(([k, x]) => `${k.replace(/_/g, " ")} ${x}`).join(", ") : v;
    // A turn action by its button ("stand", "trade a card"), a fold in the game's own word.
    let kind = e.type.replace(/_/g, " ");
    if (e.type === "draw" && body.action) { kind = actionWords(body.action).button.toLowerCase(); delete body.action; }
    else if (e.type === "fold") kind = gameWords().fold;
    const fields = Object.entries(body).map(([k, v]) => `${k.replace(/_/g, " ")} ${said(v)}`);
    return `${who(e.actor)}: ${kind}${fields.length ? ` (${fields.join(", ")})` : ""}`;
  }

  /** The entries of the current hand (only those can be undone), newest first. */
  async function loadRecent() {
    if (!state) return;
    const result = await call("GET", `${base}/log?after=${Math.max(0, state.version - 30)}`);
    if (!result.ok) return;
    let entries = result.data.entries;
    const start = entries.map((e) => e.type === "start_hand" && !e.undone_by).lastIndexOf(true);
    if (start >= 0) entries = entries.slice(start);
    const list = $("recent-entries");
    list.replaceChildren(...entries.slice(-10).reverse().map((e) => {
      const li = el("li", { class: e.undone_by ? "is-undone" : "", "data-seq": String(e.seq) },
        el("span", { text: `#${e.seq} ${entryWords(e)}` }));
      if (e.undone_by) li.append(" ", el("span", { class: "undone-note", text: `undone by #${e.undone_by}` }));
      if (!e.undone_by && !e.undoes && e.type !== "join") {
        const err = el("p", { class: "field-error", "aria-live": "polite" });
        const b = el("button", { type: "button", class: "button small", text: "Undo", "aria-label": `Undo entry ${e.seq}` });
        b.addEventListener("click", () => undo({ seq: e.seq }, err));
        li.append(" ", b, err);
      }
      return li;
    }));
    if (!entries.length) list.append(el("li", { class: "muted", text: "Nothing to undo yet." }));
  }

  async function undo(body, slot) {
    slot.textContent = "";
    const result = await call("POST", `${base}/undo`, { ...body, idempotency_key: newKey() }, token);
    if (!result.ok) {
      slot.textContent = refusal(result);
      if (result.data.state) render(result.data.state);
      return;
    }
    const ev = result.data.events.find((e) => e.type === "undone") || {};
    $("undo-result").textContent = ev.words
      ? `Undone: ${ev.words} (entry ${result.data.undone}).`
      : `Entry ${result.data.undone} (${String(ev.entry_type || "").replace(/_/g, " ")} by ${who(ev.actor)}) is undone.`;
    render(result.data.state);
    loadRecent();
  }

  // -- forms --

  function formCommand(form, build, done) {
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      clearFieldErrors(form);
      form.querySelector(".form-error").textContent = "";
      form.querySelector(".form-done").textContent = "";
      const built = build();
      if (built.error) { showFieldError(form, built.error[0], built.error[1]); return; }
      const result = await live.send(built.entry);
      if (!result.ok) {
        const field = result.data && result.data.field !== "version" ? result.data.field : null;
        if (!showFieldError(form, field, result.words)) form.querySelector(".form-error").textContent = result.words;
        return;
      }
      form.querySelector(".form-done").textContent = done(result.data);
      form.reset();
    });
  }

  formCommand($("adjust-form"), () => {
    const amount = $("adjust-amount").value.trim();
    const reason = $("adjust-reason").value.trim();
    if (!$("adjust-seat").value) return { error: ["seat", "Choose a player."] };
    if (!/^-?\d+$/.test(amount) || Number(amount) === 0) return { error: ["amount", "Enter the credits to add or take away (not 0)."] };
    if (!reason) return { error: ["reason", "Say why: the reason is written in the audit log."] };
    return { entry: { type: "adjust", seat: $("adjust-seat").value, amount: Number(amount), reason } };
  }, (data) => {
    const ev = data.events.find((e) => e.type === "adjusted");
    return ev ? `${who(ev.seat)}'s stack is now ${ev.stack}.` : "Adjusted.";
  });

  formCommand($("stake-form"), () => {
    const item = $("stake-item").value.trim();
    const value = $("stake-value").value.trim();
    if (!$("stake-seat").value) return { error: ["seat", "Choose a player."] };
    if (!item) return { error: ["item", "Name the item."] };
    if (!/^\d+$/.test(value) || Number(value) < 1) return { error: ["value", "Enter its value in whole credits (at least 1)."] };
    return { entry: { type: "stake", seat: $("stake-seat").value, item, value: Number(value) } };
  }, (data) => {
    const ev = data.events.find((e) => e.type === "staked");
    return ev ? `${who(ev.seat)} staked ${ev.item} for ${ev.value} credits.` : "Staked.";
  });

  for (const id of ["start-hand", "host-roll", "host-no-call"]) {
    const button = $(id);
    button.addEventListener("click", () => send({ type: button.dataset.command }, button.parentElement));
  }
  $("undo-last").addEventListener("click", () =>
    undo({ version: state ? state.version : undefined }, $("undo-last").parentElement.querySelector(".field-error")));
  $("set-dealer").addEventListener("click", () =>
    send({ type: "set_dealer", seat: $("dealer-seat").value || null }, $("set-dealer").closest(".control")));
  $("end-session").addEventListener("click", () => {
    // Two taps on purpose: ending a session cannot be undone.
    $("end-session").hidden = true;
    $("end-session-confirm").hidden = false;
    $("end-session-confirm").focus();
  });
  $("end-session-confirm").addEventListener("click", async () => {
    const choice = document.querySelector('input[name="sabacc_pot"]:checked');
    const done = await send({ type: "end_session", sabacc_pot: choice ? choice.value : "split" }, $("end-control"));
    $("end-session-confirm").hidden = true;
    $("end-session").hidden = Boolean(done) || (state && state.ended);
    if (done) $("standings").querySelector("caption").focus?.();
  });
  // A seat for a player without a phone: the same join as a phone's; the console plays it.
  $("add-seat-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = $("add-seat-form");
    clearFieldErrors(form);
    $("add-seat-done").textContent = "";
    const name = $("add-seat-name").value.trim();
    if (!name) { showFieldError(form, "name", "Type the player's name."); return; }
    const result = await call("POST", `${base}/join`, { name, idempotency_key: newKey() });
    if (!result.ok) {
      if (!showFieldError(form, "name", refusal(result))) form.querySelector(".field-error").textContent = refusal(result);
      return;
    }
    $("add-seat-name").value = "";
    $("add-seat-done").textContent = `${name} has seat ${result.data.seat}: play it from “Play for a seat”.`;
    // The table's stream brings the new seat: "Play for a seat" then chooses it.
    pendingSeat = result.data.seat;
    if (state && state.seats.some((x) => x.seat === pendingSeat)) renderSeats();
  });
  // Dealer's choice: another rule set from the next hand, with its game's options (the same
  // fields as the start page's); the page is drawn again for it.
  const rulesOptions = optionFields($("rules-options"), "rules");
  rulesOptions.show($("rules-preset").value);
  $("rules-preset").addEventListener("change", () => { clearFieldErrors($("rules-form")); rulesOptions.show($("rules-preset").value); });
  $("rules-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = $("rules-form");
    clearFieldErrors(form);
    form.querySelector(".form-error").textContent = "";
    const { rules: changed, errors } = rulesOptions.read();
    if (errors.length) { for (const [path, words] of errors) showFieldError(form, path, words); return; }
    const rules = { preset: $("rules-preset").value, ...changed };
    const entry = { type: "change_rules", rules };
    const result = await live.send(entry);
    if (!result.ok) {
      const field = result.data && result.data.field ? result.data.field : null;
      if (!showFieldError(form, field, result.words)) form.querySelector(".form-error").textContent = result.words;
      return;
    }
    window.location.reload();
  });
  $("bind-scrambler").addEventListener("click", async () => {
    const slot = $("bind-scrambler").parentElement.querySelector(".field-error");
    slot.textContent = "";
    // The server's owner token moves the scrambler from another table; without it the host
    // token binds only while the scrambler serves this table (or no table yet).
    const ownerToken = $("owner-token").value.trim();
    const body = ownerToken ? { code, owner_token: ownerToken } : { code };
    const result = await call("PUT", "/api/v1/scrambler", body, token);
    if (!result.ok) { slot.textContent = refusal(result); return; }
    scramblerStatus();
  });

  /** The display link carries the table's display key (in the fragment, never sent on). */
  async function linkDisplay() {
    const result = await call("GET", base, undefined, token);
    if (result.ok && result.data.display_key) {
      $("console-display-link").href = `/t/${encodeURIComponent(code)}/display#key=${result.data.display_key}`;
    }
  }

  async function scramblerStatus() {
    const result = await call("GET", "/api/v1/scrambler");
    const bound = result.ok ? result.data.code : null;
    $("scrambler-status").textContent = !result.ok ? "The scrambler's table is not known."
      : bound === code ? "The scrambler (button or USB box) rolls for this table."
      : bound ? `The scrambler rolls for table ${bound}, not this one.`
      : "The scrambler is not bound to a table: bind it with the owner token (serve prints the host's link carrying it).";
    $("bind-scrambler").disabled = bound === code;
    const devices = await call("GET", "/scrambler/devices.json");
    $("scrambler-devices").textContent = devices.ok ? devices.data.words : "";
  }

  // -- starting: the token, the state, the event stream --

  let live = null;

  /** Follow the table with `token`: the state, then its event stream (live.js reconnects). */
  function begin() {
    if (live) live.close();
    $("token-panel").hidden = true;
    live = new LiveTable(code, {
      token,
      onState(next) {
        if (!live.host) {
          live.close();
          askForToken("That token is a seat's, not the host's.");
          return;
        }
        keepHostToken(code, token);
        $("host-area").hidden = false;
        render(next);
        loadRecent();
      },
      onStatus(status, words) {
        $("live-status").textContent = status === "live" ? "Live: changes from every phone appear here at once." : words;
        if (status === "refused") askForToken("This token is not valid at this table.");
      },
    });
    live.start();
    scramblerStatus();
    linkDisplay();
    setInterval(scramblerStatus, 15000); // a USB box plugged in or out shows within 15 s
  }

  function askForToken(words) {
    $("token-panel").hidden = false;
    $("host-area").hidden = true;
    $("live-status").textContent = "";
    $("token-form").querySelector(".field-error").textContent = words || "";
  }

  $("token-form").addEventListener("submit", (event) => {
    event.preventDefault();
    token = $("host-token-input").value.trim();
    if (token) begin();
  });

  if (token) begin();
  else askForToken("");
}

const startForm = document.getElementById("start-form");
if (startForm) startPage(startForm);
const consoleRoot = document.getElementById("console");
if (consoleRoot) consolePage(consoleRoot);
