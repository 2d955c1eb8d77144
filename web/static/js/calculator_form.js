// The payout calculator's form drawn from a game's declared form (CalculatorSchema.form, sent by
// the server on each preset's <option data-game>): the request's own fields, one card per
// player with the player's fields, the request built from them, and the answer shown as a
// sentence and a table. Nothing here knows a game: the words and the keys are the game's.

import { CardPicker } from "./cardpicker.js";
import { joinWords } from "./settlement.js";

let seq = 0;

/** A labelled control for one declared field; `id` makes the label's target unique. */
function control(field, id, onChange) {
  const wrap = document.createElement("div");
  wrap.className = field.kind === "cards" ? "control cards-control" : "control";
  const err = document.createElement("p");
  err.className = "field-error";
  err.setAttribute("aria-live", "polite");
  let el;
  if (field.kind === "cards") {
    const label = document.createElement("span");
    label.className = "label";
    label.id = `${id}-label`;
    label.textContent = field.label;
    el = document.createElement("div");
    el.id = id;
    el.setAttribute("aria-labelledby", label.id);
    wrap.append(label, el, err);
    return { wrap, el };
  }
  if (field.kind === "choice") {
    el = document.createElement("select");
    for (const [value, words] of field.choices) {
      const option = document.createElement("option");
      option.value = JSON.stringify(value);
      option.textContent = words;
      el.append(option);
    }
  } else {
    el = document.createElement("input");
    el.type = field.kind === "flag" ? "checkbox" : "text";
    if (field.kind === "whole") {
      el.type = "number";
      el.inputMode = "numeric";
      el.min = "0";
      el.step = "1";
      if (!field.optional) el.value = "0";
    }
    if (field.kind === "text") el.autocomplete = "off";
  }
  el.id = id;
  el.addEventListener("input", onChange);
  el.addEventListener("change", onChange);
  const label = document.createElement("label");
  label.htmlFor = id;
  if (field.kind === "flag") {
    label.className = "check";
    label.append(el, ` ${field.label}`);
    wrap.append(label, err);
  } else {
    label.textContent = field.label;
    wrap.append(label, el, err);
  }
  return { wrap, el };
}

/** The value a control holds, as the request sends it (undefined: leave the field out). */
function valueOf(field, box) {
  if (field.kind === "cards") return box.cards;
  if (field.kind === "flag") return box.checked || undefined;
  if (field.kind === "choice") return JSON.parse(box.value);
  const text = box.value.trim();
  if (field.kind === "text") return text;
  if (field.kind === "numbers") {
    // Sent as typed: the server says in words what is wrong with "x" or "2.5".
    return text === "" ? undefined : text.split(/[\s,]+/).filter(Boolean).map(Number);
  }
  if (text === "") return field.optional ? undefined : 0;
  return Number(text);
}

/** Set `value` at the dotted `key` of `out` ("target.suit" fills out.target.suit). */
function put(out, key, value) {
  if (value === undefined) return;
  const parts = key.split(".");
  let at = out;
  for (const part of parts.slice(0, -1)) at = at[part] ??= {};
  at[parts[parts.length - 1]] = value;
}

/**
 * The form of one game: `root` receives its fields and its players. `options`: the deck and
 * the card pool the pickers share, and `onChange` (anything typed).
 */
export class DeclaredForm {
  constructor(root, form, { deck, pool, tarot = false, onChange = () => {}, players = 2 }) {
    this.root = root;
    this.form = form;
    this.deck = deck;
    this.pool = pool;
    this.tarot = tarot;
    this.onChange = onChange;
    this.players = [];
    root.replaceChildren();
    const fields = document.createElement("div");
    fields.className = "declared-fields";
    this.fields = (form.fields || []).map((field) => {
      const { wrap, el } = control(field, `declared-${field.key.replace(/\W+/g, "-")}`, onChange);
      wrap.dataset.field = field.key;
      fields.append(wrap);
      return { field, el };
    });
    this.list = document.createElement("ol");
    this.list.className = "players";
    this.list.id = "declared-players";
    const playersControl = document.createElement("div");
    playersControl.className = "control";
    playersControl.dataset.field = "players";
    const err = document.createElement("p");
    err.className = "field-error";
    err.setAttribute("aria-live", "polite");
    playersControl.append(this.list, err);
    const add = document.createElement("button");
    add.type = "button";
    add.className = "button";
    add.id = "declared-add-player";
    add.textContent = "Add a player";
    add.addEventListener("click", () => {
      const p = this.addPlayer();
      p.boxes.get("name")?.focus();
    });
    root.append(fields, playersControl, add);
    for (let i = 0; i < players; i++) this.addPlayer();
  }

  /** One more player card, in seat order, with the game's player fields. */
  addPlayer() {
    const n = ++seq;
    const li = document.createElement("li");
    li.className = "player";
    const card = document.createElement("fieldset");
    card.className = "player-card";
    const legend = document.createElement("legend");
    legend.className = "seat-label";
    card.append(legend);
    const player = { li, boxes: new Map(), pickers: [] };
    for (const field of this.form.player || []) {
      const { wrap, el } = control(field, `dp${n}-${field.key}`, this.onChange);
      wrap.dataset.key = field.key;
      card.append(wrap);
      if (field.kind === "cards") {
        const picker = new CardPicker(el, { deck: this.deck, pool: this.pool, max: field.max || 0,
          tarot: this.tarot, onChange: this.onChange });
        player.pickers.push(picker);
        player.boxes.set(field.key, picker);
      } else {
        player.boxes.set(field.key, el);
      }
      if (field.kind === "flag" && field.key === "folded") {
        // A folded player's cards stop counting against the deck.
        el.addEventListener("change", () => player.pickers.forEach((p) => p.setDisabled(el.checked)));
      }
    }
    const remove = document.createElement("button");
    remove.type = "button";
    remove.className = "button small danger";
    remove.dataset.action = "remove";
    remove.textContent = "Remove";
    remove.addEventListener("click", () => this.removePlayer(player));
    card.append(remove);
    li.append(card);
    this.list.append(li);
    this.players.push(player);
    this.renumber();
    return player;
  }

  removePlayer(player) {
    const i = this.players.indexOf(player);
    if (i < 0) return;
    this.players.splice(i, 1);
    player.pickers.forEach((p) => p.destroy());
    player.li.remove();
    this.renumber();
    this.onChange();
  }

  /** Seat labels, and the request paths a refusal's `field` names, follow the order. */
  renumber() {
    this.players.forEach((p, i) => {
      p.li.querySelector(".seat-label").textContent = `Seat ${i + 1}`;
      p.li.dataset.field = `players[${i}]`;
      for (const c of p.li.querySelectorAll(".control[data-key]")) c.dataset.field = `players[${i}].${c.dataset.key}`;
    });
  }

  setTarot(tarot) {
    this.tarot = tarot;
    for (const p of this.players) p.pickers.forEach((picker) => picker.setTarot(tarot));
  }

  destroy() {
    for (const p of this.players) p.pickers.forEach((picker) => picker.destroy());
    this.root.replaceChildren();
  }

  /** The request body: `rules` and the declared fields, each player's fields. */
  request(rules) {
    const out = { rules };
    for (const { field, el } of this.fields) put(out, field.key, valueOf(field, el));
    out.players = this.players.map((p) => {
      const player = {};
      for (const field of this.form.player || []) put(player, field.key, valueOf(field, p.boxes.get(field.key)));
      return player;
    });
    return out;
  }
}

/** The declared tie's exchange for an answer, or null when the answer is no tie. */
export function declaredTie(form, data) {
  const tie = form.tie;
  if (!tie || data.status !== tie.status) return null;
  const names = data[tie.players] || [];
  return {
    names,
    field: tie.field,
    title: tie.title,
    text: tie.text.replace("{names}", joinWords(names)),
    label: (name) => tie.label.replace("{name}", name),
  };
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
  return (data.pots || []).filter((p) => p.winners.length).map((p) => p.winners.length === 1
    ? `${p.winners[0]} wins ${p.amount}` : `${joinWords(p.winners)} split ${p.amount}`).join("; ");
}

/** The answer in one sentence: who won, then who pays what. */
export function declaredSentence(form, data) {
  const parts = [winnersWords(form.result, data)];
  for (const p of data.penalties || []) if (p.amount) parts.push(`${p.name} pays ${p.amount}`);
  const words = parts.filter(Boolean).join("; ");
  return words ? `${words}.` : "";
}

/** The rows of the payouts table: [name, hand words, amount, after]. */
export function declaredRows(form, request, data) {
  const result = form.result;
  return data.hands.map((hand, i) => {
    const facts = (result.facts || []).filter(([key]) => hand[key] !== null && hand[key] !== undefined)
      .map(([key, words]) => `${words} ${hand[key]}`);
    const kind = (result.kinds || {})[hand.kind] || hand.kind;
    const amount = (data[result.amount] || {})[hand.name];
    const sent = request.players[i] || {};
    const after = result.after_label && typeof sent[result.after] === "number" && typeof amount === "number"
      ? String(sent[result.after] + amount) : "—";
    return {
      name: hand.name,
      hand: facts.length ? `${kind} (${facts.join(", ")})` : kind,
      amount: typeof amount !== "number" ? "—" : result.signed ? signed(amount) : String(amount),
      value: typeof amount === "number" ? amount : 0,
      after,
    };
  });
}
