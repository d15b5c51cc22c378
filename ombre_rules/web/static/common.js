// Helpers shared by the pages: requests, DOM building, drawing cards from the rules' suits, what the browser keeps.

export async function api(path, options = {}) {
  const init = { ...options };
  if (init.json !== undefined) {
    init.method = init.method || "POST";
    init.headers = { "Content-Type": "application/json" };
    init.body = JSON.stringify(init.json);
    delete init.json;
  }
  const res = await fetch(path, init);
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = { error: text }; }
  if (!res.ok) {
    const err = new Error((data && data.error) || `${res.status} ${res.statusText}`);
    err.status = res.status;
    throw err;
  }
  return data;
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "style" && typeof v === "object") {
      for (const [prop, val] of Object.entries(v)) {
        if (prop.startsWith("--")) node.style.setProperty(prop, val); else node.style[prop] = val;
      }
    }
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

// What this browser keeps between visits (a seat's name, settings, the links of tables it made).
export const kept = {
  get(key, fallback = null) {
    try { const v = localStorage.getItem(`ombre.${key}`); return v === null ? fallback : JSON.parse(v); } catch { return fallback; }
  },
  set(key, value) {
    try { localStorage.setItem(`ombre.${key}`, JSON.stringify(value)); } catch { /* private mode: not kept */ }
  },
};

const PALETTE = { red: "#b3261e", black: "#1f2328" };

// The ink of a suit: its colour attribute when it names a colour, else a neutral ink.
export function suitInk(suit) {
  const c = (suit && suit.colour) || "";
  if (PALETTE[c]) return PALETTE[c];
  if (c && CSS.supports("color", c)) return c;
  return "#1d3f73";
}

// A card as text a person reads: rank and suit symbol ("A♠"), from the view's faces.
export function cardText(name, faces) {
  const f = faces && faces[name];
  return f && f.face ? f.face : name;
}

// A card face: rank and suit symbol in the suit's colour, named for screen readers ("ace of spades"), a star on
// a trump. `faces` maps card names to {rank, suit, face, spoken, trump}.
export function cardEl(name, faces, suits, extra = {}) {
  const f = faces[name] || { rank: name, suit: -1 };
  const suit = suits[f.suit] || null;
  const sym = suit ? suit.symbol : "";
  const cls = ["card", sym ? "" : "plain", f.trump ? "trump" : "", extra.class || ""].filter(Boolean).join(" ");
  const tag = extra.tag || "div";
  const spoken = (f.spoken || name) + (f.trump ? ", trump" : "") + (extra.say ? `, ${extra.say}` : "");
  const attrs = { ...extra, class: cls, "data-card": name, title: extra.title || spoken, "aria-label": spoken,
    style: { "--ink": suitInk(suit) } };
  if (tag === "div") attrs.role = "img";
  delete attrs.tag;
  delete attrs.say;
  return el(tag, attrs,
    el("span", { class: "corner", "aria-hidden": "true" }, el("span", { class: "rank" }, f.rank), sym ? el("span", { class: "sym" }, sym) : null),
    el("span", { class: "pip", "aria-hidden": "true" }, sym || f.rank),
    f.trump ? el("span", { class: "star", "aria-hidden": "true" }, "★") : null);
}

// A seat as people call it: "You", the name its player typed, or "Seat N" (with the kind of a bot).
export function seatLabel(i, table, you) {
  if (i === you) return "You";
  const name = table && table.names ? table.names[i] : "";
  const kind = table && table.seats ? table.seats[i] : "";
  const bot = kind && kind !== "human" ? ` · ${kind.split(":")[0]} bot` : "";
  return name ? `${name}${bot}` : `Seat ${i}${bot}`;
}

export function signed(n) {
  return n > 0 ? `+${n}` : `${n}`;
}

export function humanize(word) {
  if (!word) return "";
  const s = String(word).replace(/_/g, " ");
  return s.charAt(0).toUpperCase() + s.slice(1);
}

// A value the session carries between deals, as a person reads it (by its type: a suit with its symbol).
export function carriedText(suits, type, x) {
  if (x === null || x === undefined) return "not set";
  if (type === "suit") {
    const s = suits.find((u) => u.name === x);
    return `${s && s.symbol ? s.symbol + " " : ""}${humanize(x)}`;
  }
  if (type === "list") return x.length ? x.join(", ") : "none";
  if (type === "bool") return x ? "yes" : "no";
  if (type === "str") return x ? humanize(x) : "none";
  return `${x}`;
}

export function toast(message, kind = "info") {
  let box = document.getElementById("toasts");
  if (!box) { box = el("div", { id: "toasts" }); document.body.append(box); }
  const t = el("div", { class: `toast ${kind}`, role: kind === "error" ? "alert" : "status" }, message);
  box.append(t);
  setTimeout(() => t.remove(), 4500);
}

// Draw a page again without losing the place of the keyboard: the focused control (by its data-focus key) and
// the text typed in a field are found again in the new page.
export function keepFocus(draw) {
  const a = document.activeElement;
  const key = a && a.dataset ? a.dataset.focus : null;
  const typed = a && a.tagName === "INPUT" ? [a.value, a.selectionStart, a.selectionEnd] : null;
  draw();
  if (!key) return;
  const again = document.querySelector(`[data-focus="${CSS.escape(key)}"]`);
  if (!again) return;
  again.focus({ preventScroll: true });
  if (typed && again.tagName === "INPUT") { again.value = typed[0]; try { again.setSelectionRange(typed[1], typed[2]); } catch { /* not a text field */ } }
}

export function header(active) {
  return el("header", { class: "site" },
    el("a", { class: "brand", href: "/" }, el("span", { class: "logo", "aria-hidden": "true" }), " Card table"),
    el("nav", { "aria-label": "Site" },
      el("a", { href: "/", class: active === "lobby" ? "on" : "" }, "Lobby"),
      el("a", { href: "/replay", class: active === "replay" ? "on" : "" }, "Replay a deal")));
}
