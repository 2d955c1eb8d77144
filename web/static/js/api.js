// Talking to the companion's JSON API, and showing its errors next to the control they name.
//
// Every API error is `{"error": "<words>", "field": "<path>"}` with a path such as
// `players[1].cards[0]`. A page marks each control's wrapper with `data-field="<path>"` and
// puts a `.field-error` element (aria-live) inside it; `showFieldError` finds the wrapper whose
// path is the longest prefix of the error's path and writes the words there.

/**
 * POST `body` as JSON to `url`.
 * @returns {Promise<{ok: boolean, status: number, data: any}>} never rejects on an HTTP error;
 *   a network failure gives status 0 and an `error` in words.
 */
export async function postJSON(url, body) {
  let response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body),
    });
  } catch (err) {
    return { ok: false, status: 0, data: { error: "The companion could not be reached. Is the box still on?", field: null } };
  }
  let data = null;
  try {
    data = await response.json();
  } catch (err) {
    data = { error: `The companion answered ${response.status} without a readable body.`, field: null };
  }
  return { ok: response.ok, status: response.status, data };
}

/** GET `url` as JSON (throws on an HTTP error). */
export async function getJSON(url) {
  const response = await fetch(url, { headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return response.json();
}

/**
 * The paths to try for an error's field, most specific first:
 * `players[1].cards[0]` -> `players[1].cards[0]`, `players[1].cards`, `players[1]`, `players`.
 */
export function fieldPathCandidates(path) {
  const out = [];
  let p = String(path || "");
  while (p) {
    out.push(p);
    const next = p.replace(/(\[\d+\]|\.[^.[\]]+)$/, "");
    if (next === p) break;
    p = next;
  }
  return out;
}

/** Remove every error shown by `showFieldError` inside `root`. */
export function clearFieldErrors(root) {
  for (const el of root.querySelectorAll(".field-error")) el.textContent = "";
  for (const el of root.querySelectorAll(".has-error")) el.classList.remove("has-error");
  for (const el of root.querySelectorAll("[aria-invalid]")) el.removeAttribute("aria-invalid");
}

/**
 * Show `message` next to the control whose `data-field` best matches `field`.
 * @returns {Element|null} the wrapper it was shown in, or null (show it at form level then).
 */
export function showFieldError(root, field, message) {
  for (const path of fieldPathCandidates(field)) {
    const wrapper = root.querySelector(`[data-field="${CSS.escape(path)}"]`);
    if (!wrapper) continue;
    const slot = wrapper.querySelector(":scope > .field-error") || wrapper.querySelector(".field-error");
    if (!slot) continue;
    slot.textContent = message;
    wrapper.classList.add("has-error");
    const control = wrapper.querySelector("input, select, button, textarea");
    if (control) {
      control.setAttribute("aria-invalid", "true");
      if (!slot.id) slot.id = `err-${path.replace(/[^a-zA-Z0-9]+/g, "-")}`;
      control.setAttribute("aria-describedby", slot.id);
    }
    return wrapper;
  }
  return null;
}
