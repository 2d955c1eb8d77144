// The card picker: choose cards with a few taps (the deck's groups as tabs, a grid of faces),
// see them as removable chips, and never pick more copies of a card than the deck holds.
//
// The deck comes from the server (GET /api/v1/cards?deck=NAME, built from the rule set's
// `Deck` value): its groups, names and short faces. This module knows no game's cards; a page
// names its table's deck in <body data-deck="...">. Several pickers can share one `CardPool` so that the copies limit
// holds across a whole table (every player's hand, a tie-break card, cards laid face up).
//
//   import { loadDeck, CardPool, CardPicker } from "/static/js/cardpicker.js";
//   const deck = await loadDeck();
//   const pool = new CardPool(deck);
//   const picker = new CardPicker(document.getElementById("hand"), {
//     deck, pool, max: 0, label: "Your hand", onChange: (codes) => console.log(codes),
//   });
//   picker.setCards(["co7", "sa11"]);   picker.cards  // -> ["co7", "sa11"]
//
// All text is set with textContent; nothing is parsed as HTML.

const deckPromises = new Map();

/** The deck this page's table plays (its <body data-deck>); "": the server's default deck. */
export function pageDeckName() {
  return (typeof document !== "undefined" && document.body && document.body.dataset.deck) || "";
}

/**
 * Load a deck once per page: {name, groups, cards, short, byCode: Map}. `which` is a deck's
 * name, or a URL (the calculator's form names its own); without one, the page's deck.
 */
export function loadDeck(which = pageDeckName()) {
  const url = !which ? "/api/v1/cards" : which.includes("/") ? which : `/api/v1/cards?deck=${encodeURIComponent(which)}`;
  if (!deckPromises.has(url)) {
    deckPromises.set(url, fetch(url, { headers: { Accept: "application/json" } })
      .then((r) => {
        if (!r.ok) throw new Error(`the deck could not be loaded (${r.status})`);
        return r.json();
      })
      .then((deck) => ({ ...deck, byCode: new Map(deck.cards.map((c) => [c.code, c])) })));
  }
  return deckPromises.get(url);
}

/** The name players read for a card (the deck's name for it, or the tarot name). */
export function cardName(deck, code, tarot = false) {
  const c = deck.byCode.get(code);
  if (!c) return code;
  return tarot ? c.tarot : c.name;
}

/** A function that puts card names (the deck's) for the card codes ("sa10") in the
 * server's words; the codes it knows are the deck's own (longest first, whole words only). */
export function codeNamer(deck) {
  const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const codes = [...(deck.in_words || deck.byCode.keys())].sort((a, b) => b.length - a.length).map(escape);
  if (!codes.length) return (words) => words;
  // A code starting with a sign ("+7", "-7") has no word boundary before it: look behind instead.
  const pattern = new RegExp(`(?<![\\w+-])(${codes.join("|")})(?![\\w])`, "g");
  return (words) => words.replace(pattern, (code) => cardName(deck, code));
}

/** The short face of a card button, in the server's words: "7", "Cmdr", "+7". */
function shortLabel(deck, card, tarot) {
  const faces = (tarot ? deck.tarot_short : deck.short) || {};
  return faces[card.code] || (tarot ? card.tarot : card.name);
}

/** Whether a deck's cards show their value on the button beside the face (not where the
 * face is the value itself, nor for a numbered suit card). */
function showsValue(deck, card) {
  return deck.entry !== "value" && !card.suit;
}

/**
 * How many copies of each card are in use across every picker that shares this pool, so
 * that no picker offers a card the deck has run out of.
 */
export class CardPool {
  constructor(deck) {
    this.deck = deck;
    this.pickers = new Set();
    this.listeners = new Set();
    this.reserved = []; // cards lying face up elsewhere (laid out by other players): not for picking
  }

  /** Cards on the table outside every picker (e.g. cards the other players laid face up). */
  setReserved(codes) {
    this.reserved = [...(codes || [])];
    this.changed();
  }

  /** Copies of `code` in use, optionally leaving one picker out. */
  count(code, except = null) {
    let n = this.reserved.filter((c) => c === code).length;
    for (const p of this.pickers) if (p !== except && p.isCounted()) n += p.cards.filter((c) => c === code).length;
    return n;
  }

  /** Copies of `code` still free for the deck. */
  left(code) {
    const card = this.deck.byCode.get(code);
    return card ? card.copies - this.count(code) : 0;
  }

  /** Called by pickers: tell every picker that counts changed. */
  changed() {
    for (const p of this.pickers) p.refresh();
    for (const fn of this.listeners) fn();
  }
}

let pickerSeq = 0;

/**
 * One hand's card picker: suit tabs over a grid of ranks, the chosen cards as chips (tap a
 * chip to take the card back). A card whose copies are all in use anywhere in the shared
 * pool is greyed out, so a table can never hold more copies of a card than its deck.
 */
export class CardPicker {
  /**
   * @param {HTMLElement} root  an empty element (role=group) that the picker fills in
   * @param {object} opts
   *   deck     the deck from loadDeck()
   *   pool     a shared CardPool (default: a pool of its own)
   *   max      most cards it holds (0 or missing: root's data-max, else no limit)
   *   label    accessible name of the group (default: root's aria-label)
   *   tarot    show tarot names
   *   cards    initial card codes
   *   allowed  which cards the rules let a hand hold (card -> bool; default: every card)
   *   locked   cards that cannot be taken out (laid face up: they are part of the hand)
   *   lockedWords  where the locked cards lie, in the game's words (default "the cards you keep face up")
   *   onChange called with the list of codes after every change
   */
  constructor(root, opts = {}) {
    this.root = root;
    this.deck = opts.deck;
    this.pool = opts.pool || new CardPool(this.deck);
    this.max = Number(opts.max ?? root.dataset.max ?? 0) || 0;
    this.tarot = Boolean(opts.tarot);
    this.onChange = opts.onChange || null;
    this.allowed = opts.allowed || null;
    this.disabled = false;
    this.locked = [...(opts.locked || [])];
    // Where the locked cards lie, in the game's words (the kept block's: "your " and its words).
    this.lockedWords = opts.lockedWords || "the cards you keep face up";
    this._cards = [];
    this.id = root.id || `cardpicker-${++pickerSeq}`;
    if (opts.label) root.setAttribute("aria-label", opts.label);
    root.setAttribute("role", "group");
    root.classList.add("cardpicker");
    this.activeTab = this.deck.groups[0].key;
    this._build();
    this.pool.pickers.add(this);
    if (opts.cards) this.setCards(opts.cards, { silent: true });
    this.refresh();
  }

  /** The chosen card codes, in the order they were picked. */
  get cards() {
    return [...this._cards];
  }

  /** Whether this picker's cards count against the deck (not while it is disabled, e.g. folded). */
  isCounted() {
    return !this.disabled;
  }

  /** Replace the chosen cards (codes, any case). Cards that do not fit are refused. */
  setCards(codes, { silent = false } = {}) {
    this._cards = [];
    for (const code of codes) this.add(String(code).toLowerCase(), { silent: true });
    this._changed(silent);
  }

  /** Add one card. Returns false (and says why) if the deck holds no more copies or the hand is full. */
  add(code, { silent = false } = {}) {
    const card = this.deck.byCode.get(code);
    if (!card || this.disabled) return false;
    if (this.allowed && !this.allowed(card)) {
      this._say(`${cardName(this.deck, code, this.tarot)} is set aside in these rules.`);
      return false;
    }
    if (this.max && this._cards.length >= this.max) {
      this._say(`Only ${this.max} card${this.max === 1 ? "" : "s"} here: remove one first.`);
      return false;
    }
    if (this.pool.left(code) <= 0 && this.isCounted()) {
      this._say(`No more copies: the deck has ${card.copies} ${cardName(this.deck, code, this.tarot)}.`);
      return false;
    }
    this._cards.push(code);
    this._say("");
    this._changed(silent);
    return true;
  }

  /** Remove the card at `index` of `cards`. */
  remove(index) {
    if (index < 0 || index >= this._cards.length) return;
    if (this._isLocked(index)) {
      this._say(`${cardName(this.deck, this._cards[index], this.tarot)} lies in ${this.lockedWords}: it stays in your hand.`);
      return;
    }
    this._cards.splice(index, 1);
    this._changed(false);
  }

  /** Whether the card at `index` is one of the locked copies (the first ones of its code). */
  _isLocked(index) {
    const code = this._cards[index];
    const locked = this.locked.filter((c) => c === code).length;
    const before = this._cards.slice(0, index).filter((c) => c === code).length;
    return before < locked;
  }

  /** Remove every card but the locked ones. */
  clear() {
    this._cards = this._cards.filter((c, i) => this._isLocked(i));
    this._changed(false);
  }

  /** Show Sabacc names (false) or tarot names (true). */
  setTarot(tarot) {
    this.tarot = Boolean(tarot);
    this._renderGrid();
    this._renderChips();
  }

  /**
   * Offer only the cards the rules let a hand hold (a variant may set some cards aside):
   * `allowed(card)` says which; null offers every card. Cards already
   * chosen stay, so the player sees what to take out.
   */
  setAllowed(allowed) {
    this.allowed = allowed || null;
    this._renderGridState();
  }

  /** Grey the picker out (e.g. a folded player); its cards then stop counting in the pool. */
  setDisabled(disabled) {
    this.disabled = Boolean(disabled);
    this.root.classList.toggle("is-disabled", this.disabled);
    this.pool.changed();
  }

  /** Move keyboard focus to the first card button. */
  focus() {
    const b = this.grid.querySelector("button:not([disabled])");
    if (b) b.focus();
  }

  /** Take the picker out of its pool and empty its element. */
  destroy() {
    this.pool.pickers.delete(this);
    this.root.replaceChildren();
    this.pool.changed();
  }

  /** Re-render counts and chips (called by the pool when any picker changed). */
  refresh() {
    this._renderChips();
    this._renderGridState();
  }

  // ---- rendering -------------------------------------------------------------------------

  _build() {
    const doc = this.root.ownerDocument;
    this.chips = doc.createElement("ul");
    this.chips.className = "chips";
    this.chips.setAttribute("aria-label", "Chosen cards");
    this.empty = doc.createElement("p");
    this.empty.className = "chips-empty muted";
    this.empty.textContent = "No cards yet.";
    this.tabs = doc.createElement("div");
    this.tabs.className = "suit-tabs";
    this.tabs.setAttribute("role", "tablist");
    this.tabs.setAttribute("aria-label", this.deck.entry === "suit" ? "Suits" : "Cards");
    const tabs = this.deck.groups;
    this.tabButtons = new Map();
    for (const t of tabs) {
      const b = doc.createElement("button");
      b.type = "button";
      b.className = "suit-tab";
      b.setAttribute("role", "tab");
      b.dataset.tab = t.key;
      b.id = `${this.id}-tab-${t.key}`;
      b.setAttribute("aria-controls", `${this.id}-grid`);
      b.addEventListener("click", () => this._selectTab(t.key));
      b.addEventListener("keydown", (e) => this._tabKey(e, t.key));
      this.tabs.append(b);
      this.tabButtons.set(t.key, b);
    }
    this.grid = doc.createElement("div");
    this.grid.className = "card-grid";
    this.grid.id = `${this.id}-grid`;
    this.grid.setAttribute("role", "tabpanel");
    this.status = doc.createElement("p");
    this.status.className = "picker-status";
    this.status.setAttribute("aria-live", "polite");
    this.root.replaceChildren(this.chips, this.empty, this.tabs, this.grid, this.status);
    this._renderGrid();
  }

  _tabName(key) {
    const g = this.deck.groups.find((x) => x.key === key);
    return this.tarot ? g.tarot : g.name;
  }

  _selectTab(key) {
    this.activeTab = key;
    this._renderGrid();
  }

  _tabKey(event, key) {
    // Arrow keys move between tabs, as for any tab list.
    const keys = [...this.tabButtons.keys()];
    let i = keys.indexOf(key);
    if (event.key === "ArrowRight") i = (i + 1) % keys.length;
    else if (event.key === "ArrowLeft") i = (i - 1 + keys.length) % keys.length;
    else return;
    event.preventDefault();
    this._selectTab(keys[i]);
    this.tabButtons.get(keys[i]).focus();
  }

  _renderGrid() {
    const doc = this.root.ownerDocument;
    for (const [key, b] of this.tabButtons) {
      b.textContent = this._tabName(key);
      const on = key === this.activeTab;
      b.setAttribute("aria-selected", String(on));
      b.tabIndex = on ? 0 : -1;
    }
    this.grid.setAttribute("aria-labelledby", `${this.id}-tab-${this.activeTab}`);
    const group = this.deck.groups.find((g) => g.key === this.activeTab);
    const cards = group.cards.map((code) => this.deck.byCode.get(code));
    this.grid.classList.toggle("faces", cards.some((c) => showsValue(this.deck, c)));
    this.grid.classList.toggle("values", this.deck.entry === "value");
    const buttons = cards.map((c) => {
      const b = doc.createElement("button");
      b.type = "button";
      b.className = "card-btn";
      b.dataset.code = c.code;
      if (this.deck.faces) {
        // The card's own face, the SVG the printed deck shows (GET /api/v1/cards says where).
        const art = doc.createElement("img");
        art.className = "card-art";
        art.alt = "";
        art.src = this.deck.faces.replace("{code}", encodeURIComponent(c.code)) + (this.tarot ? "?tarot=1" : "");
        b.append(art);
        b.classList.add("has-art");
      }
      const face = doc.createElement("span");
      face.className = "card-face";
      face.textContent = shortLabel(this.deck, c, this.tarot);
      b.append(face);
      if (showsValue(this.deck, c)) {
        const v = doc.createElement("span");
        v.className = "card-value";
        v.textContent = String(c.value);
        b.append(v);
      }
      b.addEventListener("click", () => this.add(c.code));
      return b;
    });
    this.grid.replaceChildren(...buttons);
    this._renderGridState();
  }

  _renderGridState() {
    const full = this.max && this._cards.length >= this.max;
    for (const b of this.grid.querySelectorAll(".card-btn")) {
      const code = b.dataset.code;
      const card = this.deck.byCode.get(code);
      const left = this.isCounted() ? this.pool.left(code) : card.copies;
      const none = left <= 0;
      const setAside = Boolean(this.allowed && !this.allowed(card));
      b.disabled = this.disabled || none || setAside || Boolean(full);
      b.classList.toggle("used-up", none || setAside);
      const name = cardName(this.deck, code, this.tarot);
      const why = setAside ? ", set aside" : none ? ", no copies left" : "";
      b.setAttribute("aria-label", `${name}, ${card.value}${why}`);
      b.title = name;
    }
  }

  _renderChips() {
    const doc = this.root.ownerDocument;
    const items = this._cards.map((code, i) => {
      const li = doc.createElement("li");
      const b = doc.createElement("button");
      b.type = "button";
      b.className = "chip";
      b.dataset.code = code;
      const name = cardName(this.deck, code, this.tarot);
      const text = doc.createElement("span");
      text.textContent = name;
      const x = doc.createElement("span");
      x.className = "chip-x";
      x.setAttribute("aria-hidden", "true");
      x.textContent = "×";
      b.append(text, x);
      b.setAttribute("aria-label", `Remove ${name}`);
      if (this._isLocked(i)) {
        // A card laid face up is part of the hand: shown, never offered for removal.
        b.disabled = true;
        b.classList.add("locked");
        x.textContent = "";
        b.setAttribute("aria-label", `${name}, in ${this.lockedWords}`);
      }
      b.addEventListener("click", () => {
        this.remove(i);
        // Keep focus in the picker after the chip disappears.
        const next = this.chips.querySelector(".chip") || this.grid.querySelector("button:not([disabled])");
        if (next) next.focus();
      });
      li.append(b);
      return li;
    });
    this.chips.replaceChildren(...items);
    this.empty.hidden = items.length > 0;
    const total = this._cards.reduce((sum, c) => sum + this.deck.byCode.get(c).value, 0);
    this.root.dataset.total = String(total);
    this.root.dataset.count = String(this._cards.length);
  }

  _say(text) {
    this.status.textContent = text;
  }

  _changed(silent) {
    this.pool.changed();
    if (!silent) {
      if (this.onChange) this.onChange(this.cards);
      this.root.dispatchEvent(new CustomEvent("cardpicker:change", { detail: { cards: this.cards }, bubbles: true }));
    }
  }
}
