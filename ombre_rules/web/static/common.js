// Helpers shared by the pages: requests, DOM building, and drawing cards from the rules' suits.

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

const PALETTE = { red: "#b3261e", black: "#1f2328" };

// The ink of a suit: its colour attribute when it names a colour, else a neutral ink.
export function suitInk(suit) {
  const c = (suit && suit.colour) || "";
  if (PALETTE[c]) return PALETTE[c];
  if (c && CSS.supports("color", c)) return c;
  return "#1d3f73";
}

// A card face: rank and suit symbol in the suit's colour. `faces` maps card names to {rank, suit, trump}.
export function cardEl(name, faces, suits, extra = {}) {
  const f = faces[name] || { rank: name, suit: -1 };
  const suit = suits[f.suit] || null;
  const sym = suit ? suit.symbol : "";
  const cls = ["card", sym ? "" : "plain", f.trump ? "trump" : "", extra.class || ""].filter(Boolean).join(" ");
  const tag = extra.tag || "div";
  const title = extra.title || `${f.rank}${sym ? " " + sym : ""}${suit ? " (" + suit.name + ")" : ""}`;
  const attrs = { ...extra, class: cls, "data-card": name, title, style: { "--ink": suitInk(suit) } };
  delete attrs.tag;
  return el(tag, attrs,
    el("span", { class: "corner" }, el("span", { class: "rank" }, f.rank), sym ? el("span", { class: "sym" }, sym) : null),
    el("span", { class: "pip" }, sym || f.rank));
}

export function seatLabel(i, seats, you) {
  if (i === you) return "You";
  const kind = seats ? seats[i] : "";
  return `Seat ${i}` + (kind && kind !== "human" ? ` · ${kind}` : "");
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
  const t = el("div", { class: `toast ${kind}`, role: "status" }, message);
  box.append(t);
  setTimeout(() => t.remove(), 4000);
}

export function header(active) {
  return el("header", { class: "site" },
    el("a", { class: "brand", href: "/" }, el("span", { class: "logo", "aria-hidden": "true" }), " Card table"),
    el("nav", {},
      el("a", { href: "/", class: active === "lobby" ? "on" : "" }, "Lobby"),
      el("a", { href: "/replay", class: active === "replay" ? "on" : "" }, "Replay a deal")));
}
