// A game's facts, as every screen shows them (docs/games.md "Facts"): the view says what a game
// wants shown and how, and the phone, the console and the display draw it without knowing the
// game. Three places:
//
//   state.hand.facts.table          the table's facts (a target, the piles' top cards, ...)
//   state.hand.facts.seats[seat]    each seat's, on the seat lists (its chips, its selection)
//   state.you.facts                 the viewing seat's own (only its own view carries them)
//
// A fact: {key, words, value, hint}; hint "" (the panel's own type), "large" (read across the
// table) or "quiet" (small). Every text goes on the page as text (h()).

import { h } from "./live.js";

/** The table's facts of the view's hand (none between games or for a game that has none). */
export function tableFacts(state) {
  const facts = state.hand && state.hand.facts;
  return (facts && facts.table) || [];
}

/** Seat `seat`'s facts of the view's hand. */
export function seatFacts(state, seat) {
  const facts = state.hand && state.hand.facts;
  return (facts && facts.seats && facts.seats[seat]) || [];
}

/** The viewing seat's own facts (its view's private part). */
export function ownFacts(state) {
  return (state.you && state.you.facts) || [];
}

/** One fact as a block: its words, then its value; its hint a class (`is-large`), its key
 * `data-fact`. */
export function factItem(fact) {
  return h("div", { class: `game-fact${fact.hint ? ` is-${fact.hint}` : ""}`, dataset: { fact: fact.key } },
    h("span", { class: "fact-words" }, fact.words), " ",
    h("span", { class: "fact-value" }, String(fact.value)));
}

/** Draw `facts` into `box` (its children replaced; hidden when there are none). */
export function renderFacts(box, facts) {
  if (!box) return;
  box.replaceChildren(...facts.map(factItem));
  box.hidden = !facts.length;
}

/** A seat's facts inline, for a seat list: "stock 5 · invested 1" (each its own span, with
 * `data-fact`), or null when it has none. */
export function seatFactsLine(facts, cls = "seat-game-facts") {
  if (!facts.length) return null;
  const parts = [];
  facts.forEach((f, i) => {
    if (i) parts.push(" · ");
    parts.push(h("span", { class: `seat-fact${f.hint ? ` is-${f.hint}` : ""}`, dataset: { fact: f.key } }, `${f.words} ${f.value}`));
  });
  return h("span", { class: cls }, parts);
}
