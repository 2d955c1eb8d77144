// Any game's moves, drawn from the server's offers (issue 29): each legal move comes with its
// words, its style, whether it asks twice, and its inputs (companion/table/offers.py). The phone
// and the console draw with this the moves they have no panel of their own for, so a move of a
// game they do not know still has its button, its amount, its cards and its choices.
//
//   import { renderOffers } from "/static/js/moves.js";
//   renderOffers(box, view.you.legal, {
//     send: async (body, control) => ok,      // the page's send path; true when it went through
//     forSeat: {seat: "s2", name: "Han"},     // the console playing a seat: "… for Han", seat sent
//     deck,                                   // the page's deck (loadDeck()); else each input's
//     guard: (event) => ignored,              // the page's tap guard (TapGuard.ignores)
//     idPrefix: "amount-", kept: new Map(),   // ids of the amount fields; typed text kept
//   });
//
// An offer: {type, words, style, confirm, inputs, fields?}. What is sent is
// {type, ...fields, <each input's field>: its value} (and `seat` for the console).
// Inputs: amount {field, min, max, shortcuts: [[n, words]], words}; cards {field, deck, count,
// locked?, words}; choice | pile | seat | token {field, options: [[value, words]], words,
// count?} (a count above 1: that many of the options, sent as a list). An input with
// `optional: true` may be left out (a choice's first segment is `none`, its words): the command
// is sent without its field.
// Every text goes on the page as text (h(), textContent): nothing the server sends is parsed.

import { h, amountField } from "./live.js";
import { loadDeck, CardPicker } from "./cardpicker.js";

const ARM_MS = 4000;
const CHOICES = new Set(["choice", "pile", "seat", "token"]);

// The parts of each building block (the view's `blocks`: Evening.BLOCKS) that are moves: the kept
// cards' putting one face up and taking one back, the tie's card entered, a call step's call and
// pass. The block's other parts name its state, its events and its words.
const BLOCK_MOVES = { kept: ["add", "remove"], tie: ["move"], call: ["move", "pass"] };
// The blocks' moves a page draws in the block's own panel (the kept cards, the tie's card entry);
// the others (a call step's) are buttons among the moves.
export const PANEL_MOVES = { kept: ["add", "remove"], tie: ["move"] };

/**
 * The names the table's game gives the building blocks' moves (the view's `blocks`), as a Set:
 * every block's moves, or only the parts `which` names ({block: [part, ...]}).
 *
 *   blockMoves({kept: {field: "stock", add: "stock_add", remove: "stock_take"}})
 *     -> Set {"stock_add", "stock_take"}
 */
export function blockMoves(blocks, which = BLOCK_MOVES) {
  const out = new Set();
  for (const [block, parts] of Object.entries(which)) {
    const names = (blocks || {})[block];
    if (names) for (const part of parts) if (names[part]) out.add(names[part]);
  }
  return out;
}

/** The command an offer sends with `values` (its inputs'), for `forSeat` when the console plays. */
export function commandOf(offer, values = {}, forSeat = null) {
  return { type: offer.type, ...(offer.fields || {}), ...values, ...(forSeat ? { seat: forSeat.seat } : {}) };
}

/** Words as the console says them for the seat it plays ("Check for Han"). */
function said(words, forSeat) {
  return forSeat ? `${words} for ${forSeat.name}` : words;
}

/** The button classes of an offer's style. */
function classes(style, big = true) {
  return `button ${style === "quiet" ? "small quiet" : big ? "big" : ""}${style === "primary" ? " primary" : ""}${style === "danger" ? " danger" : ""}`.replace(/\s+/g, " ").trim();
}

/**
 * The one "tap twice" of the pages: a move that cannot be taken back is armed by a first tap
 * ("Tap again: …") and sent by a second within 4 s. The arming belongs to the move (its key),
 * not to a button: the moves are drawn again whenever the table moves on (another player acted
 * between the two taps), and the new button of the same move is still armed and says so. It
 * runs out after 4 s, so an old first tap never makes a later single tap send.
 *   const arming = new Arming();
 *   button.textContent = arming.words(key, label);     // when drawn
 *   if (!arming.isArmed(key)) { arming.arm(key, button, label); return; } // the first tap
 *   arming.clear();                                     // the second: send
 */
export class Arming {
  constructor(ms = ARM_MS) {
    this.ms = ms;
    this.key = null;
    this.until = 0;
  }

  /** Whether the move `key` was tapped once and waits for its second tap. */
  isArmed(key) {
    return this.key === key && this.until > Date.now();
  }

  /** The words of `key`'s button: "Tap again: …" while it is armed. */
  words(key, label) {
    return this.isArmed(key) ? `Tap again: ${label.toLowerCase()}` : label;
  }

  /** Draw `button` (the move `key`, its words `label`) armed or not; an armed one is itself
   * again once the arming runs out. */
  show(key, button, label) {
    const armed = this.isArmed(key);
    button.textContent = this.words(key, label);
    button.classList.toggle("armed", armed);
    if (armed) setTimeout(() => { if (button.isConnected) this.show(key, button, label); }, this.until - Date.now() + 50);
  }

  /** The first tap: arm `key`; `button` says so. */
  arm(key, button, label) {
    this.key = key;
    this.until = Date.now() + this.ms;
    this.show(key, button, label);
  }

  /** The second tap (or a refusal): nothing is armed. */
  clear() {
    this.key = null;
    this.until = 0;
  }
}

// The page's arming: one move at a time waits for its second tap.
export const arming = new Arming();

/**
 * A button that sends `body()` (null: nothing, something is missing, which `body` says) with
 * `opts.send`; where `confirm`, the first tap arms it (`arming`) and only a second one within
 * 4 s sends, also when the button was drawn again between the taps (the same `key`).
 */
export function offerButton(words, body, { send, confirm = false, style = "", guard = null, key = "" } = {}) {
  const id = `offer:${key}:${words}`; // the words name the seat the console plays for
  const button = h("button", { type: "button", class: classes(style), dataset: { key } }, words);
  if (confirm) arming.show(id, button, words);
  button.addEventListener("click", async (event) => {
    if (guard && guard(event)) return;
    const entry = body(); // what is missing is said at the first tap, before any arming
    if (!entry) return;
    if (confirm && !arming.isArmed(id)) {
      arming.arm(id, button, words);
      return;
    }
    if (confirm) arming.clear();
    button.textContent = words;
    button.classList.remove("armed");
    await send(entry, button);
  });
  return button;
}

/** The options of a choice that takes `input.count` of them (count > 1): a box each, and the
 * value is the list of the chosen options' values once exactly `count` are chosen, else null. */
function manyControl(input, id) {
  const options = input.options || [];
  const group = h("div", { class: "segmented", role: "group", "aria-label": input.words, dataset: { field: input.field } });
  options.forEach(([value, words], i) => {
    const box = h("input", { type: "checkbox", name: id, id: `${id}-${i}`, value: String(value) });
    group.append(h("label", { for: `${id}-${i}`, class: "segment" }, box, h("span", {}, words)));
  });
  const value = () => {
    const chosen = [...group.querySelectorAll("input:checked")].map((b) => options[Number(b.id.slice(id.length + 1))][0]);
    return chosen.length === input.count ? chosen : null;
  };
  return { element: h("fieldset", { class: "offer-input" }, h("legend", {}, input.words), group), value,
    missing: `Choose ${input.count}: ${lower(input.words)}.` };
}

/** A segmented control of `input.options`: one value chosen (a radio group, so keys and screen
 * readers know it). Its value: the chosen option's value, or null. */
function choiceControl(input, id) {
  if (input.count > 1) return manyControl(input, id);
  const options = input.options || [];
  const group = h("div", { class: "segmented", role: "radiogroup", "aria-label": input.words, dataset: { field: input.field } });
  // An optional input's first segment is "none" (its own words), chosen until another is:
  // the command goes without the field.
  if (input.optional) {
    const none = h("input", { type: "radio", name: id, id: `${id}-none`, value: "", checked: true, dataset: { none: "true" } });
    group.append(h("label", { for: `${id}-none`, class: "segment" }, none, h("span", {}, input.none || "None")));
  }
  options.forEach(([value, words], i) => {
    const radio = h("input", { type: "radio", name: id, id: `${id}-${i}`, value: String(value), checked: options.length === 1 && !input.optional });
    group.append(h("label", { for: `${id}-${i}`, class: "segment" }, radio, h("span", {}, words)));
  });
  const value = () => {
    const chosen = group.querySelector("input:checked");
    if (!chosen || chosen.dataset.none) return null;
    // The option's own value (a number stays a number).
    const found = options.find(([v]) => String(v) === chosen.value);
    return found ? found[0] : chosen.value;
  };
  return { element: h("fieldset", { class: "offer-input" }, h("legend", {}, input.words), group), value, missing: `Choose ${lower(input.words)} first.` };
}

/** A number within min..max (an amount among other inputs; alone, it is `amountField`). */
function numberControl(input, id) {
  const field = h("input", { type: "number", id, inputmode: "numeric", min: input.min, max: input.max, step: 1, placeholder: `${input.min}–${input.max}`, dataset: { field: input.field } });
  const value = () => {
    const raw = field.value.trim();
    if (!/^\d+$/.test(raw)) return null;
    const n = Number(raw);
    return n >= input.min && n <= input.max ? n : null;
  };
  return {
    element: h("div", { class: "offer-input control" }, h("label", { for: id }, input.words), field,
      h("p", { class: "hint" }, `From ${input.min} to ${input.max}.`)),
    value, missing: `${input.words}: type a whole number from ${input.min} to ${input.max}.`,
  };
}

/** Cards from the card picker, limited to the input's deck and count. */
function cardsControl(input, id, deck) {
  const root = h("div", { id, class: "offer-cards" });
  let picker = null;
  const make = (d) => {
    picker = new CardPicker(root, { deck: d, max: input.count || 0, label: input.words, locked: input.locked || [], cards: input.locked || [] });
  };
  if (deck && (!input.deck || deck.name === input.deck)) make(deck);
  else loadDeck(input.deck || undefined).then(make);
  const value = () => {
    if (!picker) return null;
    const cards = picker.cards;
    if (input.count && cards.length !== input.count) return null;
    return input.count === 1 ? cards[0] : cards;
  };
  const count = input.count === 1 ? "the card" : `${input.count} cards`;
  return {
    element: h("div", { class: "offer-input" }, h("p", { class: "label" }, `${input.words}:`), root),
    value, missing: `Pick ${input.count ? count : "the cards"} first (${lower(input.words)}).`,
  };
}

function lower(words) {
  return words ? words[0].toLowerCase() + words.slice(1) : words;
}

let blockSeq = 0;

/**
 * One offer drawn: an amount alone is the row of its usual amounts and a number field for the
 * rest (each sends at once); otherwise each input's control, then the offer's button.
 */
export function offerBlock(offer, opts) {
  const { send, forSeat = null, guard = null, idPrefix = "offer-", kept = null } = opts;
  const inputs = offer.inputs || [];
  const block = h("div", { class: "offer", "data-error-slot": true, dataset: { offer: offer.type } });
  const id = `${idPrefix}${offer.type}`;
  if (inputs.length === 1 && inputs[0].kind === "amount") {
    const input = inputs[0];
    const shortcuts = input.shortcuts || [];
    const row = shortcuts.map(([n, words]) => offerButton(said(words, forSeat), () => commandOf(offer, { [input.field]: n }, forSeat),
      { send, guard, style: offer.style, confirm: offer.confirm, key: `${offer.type}-${n}` }));
    if (row.length) block.append(h("div", { class: "shortcut-row", role: "group", "aria-label": said(offer.words, forSeat) }, row));
    // Where the buttons leave amounts out, a number field within the range takes any of them.
    if (shortcuts.length < input.max - input.min + 1) {
      block.append(amountField({
        id, label: said(input.words, forSeat), lo: input.min, hi: input.max, verb: offer.words, kept, guard,
        onSend: async (n, button) => Boolean(await send(commandOf(offer, { [input.field]: n }, forSeat), button)),
      }));
    }
    block.append(h("p", { class: "field-error", "aria-live": "assertive" }));
    return block;
  }
  const seq = ++blockSeq;
  const controls = inputs.map((input, i) => {
    const cid = `${id}-${input.field || i}-${seq}`;
    if (input.kind === "amount") return numberControl(input, cid);
    if (input.kind === "cards") return cardsControl(input, cid, opts.deck);
    if (CHOICES.has(input.kind)) return choiceControl(input, cid);
    return null; // a kind this page does not know: the button says what is missing
  });
  const error = h("p", { class: "field-error", "aria-live": "assertive" });
  const body = () => {
    const values = {};
    for (let i = 0; i < inputs.length; i++) {
      const control = controls[i];
      const v = control ? control.value() : null;
      if (v === null || v === undefined) {
        if (inputs[i].optional) continue; // left out: the command goes without it
        error.textContent = control ? control.missing : `This page cannot ask for ${lower(inputs[i].words || inputs[i].kind)}.`;
        return null;
      }
      values[inputs[i].field] = v;
    }
    error.textContent = "";
    return commandOf(offer, values, forSeat);
  };
  for (const c of controls) if (c) block.append(c.element);
  block.append(offerButton(said(offer.words, forSeat), body,
    { send, guard, style: offer.style, confirm: offer.confirm, key: offer.type }), error);
  return block;
}

/** Every offer of `offers` drawn (offerBlock), in order. */
export function offerBlocks(offers, opts) {
  return offers.map((o) => offerBlock(o, opts));
}

/** Draw `offers` into `box` (its children replaced). */
export function renderOffers(box, offers, opts) {
  box.replaceChildren(...offerBlocks(offers, opts));
}
