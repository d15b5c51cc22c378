// The parts of the game screen, each drawn from one view (`msg`) and the page's own state (`page`): seats, the
// trick, the prompt, the controls, the hand, the result and the boxes beside the table.
import { cardEl, cardText, carriedText, el, humanize, seatLabel, signed } from "./common.js";

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
const contractText = (table, name) => (name ? table.contracts[name] || humanize(name) : "—");

export function suitText(table, name) {
  const s = table.suits.find((x) => x.name === name);
  return s && s.symbol ? `${s.symbol} ${humanize(name)}` : humanize(name);
}

// An action as people read it, said of a seat (`you`: said of the reader): "bids Solo", "name trumps: ♠ Spades",
// "discards 7♣", "discards a card".
export function actionText(table, faces, text, you = false, phase = "") {
  const [word, arg] = text.split(" ");
  const verb = phase === "lay-away" && word === "discard" ? "lay" : word;
  const does = (v) => (you ? v : /(s|sh|ch|x)$/.test(v) ? `${v}es` : `${v}s`);
  if (verb === "lay") return `${does("lay")} away ${arg ? cardText(arg, faces) : "a card"}`;
  if (verb === "bid") return `${does("bid")} ${contractText(table, arg)}`;
  if (verb === "trump") return `${does("name")} trumps: ${suitText(table, arg)}`;
  if (!arg) return (verb === "discard" || verb === "give") ? `${does(verb)} a card` : does(verb);
  return `${does(verb)} ${cardText(arg, faces)}`;
}

// The index of a seat's team under fixed partnerships (null without them).
export function teamOf(v, seat) {
  const k = seat === null || !v.teams ? -1 : v.teams.findIndex((t) => t.includes(seat));
  return k < 0 ? null : k;
}

function sitsOut(v, seat) {
  return seat !== null && (v.sitting_out || []).includes(seat);
}

export function seatPanel(i, msg, page) {
  const { table, state: v, you } = msg;
  const badges = [];
  if (v.dealer === i) badges.push(el("span", { class: "badge" }, "dealer"));
  if (v.declarer === i) badges.push(el("span", { class: "badge decl" }, "declarer"));
  if (v.partner === i) badges.push(el("span", { class: "badge partner" }, "partner"));
  const team = teamOf(v, i);
  if (team !== null) {
    const mine = you !== null && teamOf(v, you) === team;
    badges.push(el("span", { class: `badge${mine ? " partner" : ""}` }, mine ? "your partner" : `team ${team + 1}`));
  }
  if (sitsOut(v, i)) badges.push(el("span", { class: "badge", title: table.sit_out_doc || "" }, "sits out"));
  const si = v.stand_in;  // sit_out.stand_in: the seat sitting out may take over this seat's hand
  if (si && si.taken && si.sitter === i) badges.push(el("span", { class: "badge" }, si.seat === you ? "plays your hand" : `plays ${seatLabel(si.seat, table, you)}'s hand`));
  if (table.seats[i] === "human" && !table.here[i]) badges.push(el("span", { class: "badge away" }, "not here yet"));
  const said = [...(v.actions || [])].reverse().find((a) => a.seat === i && a.phase !== "play");
  const open = i !== you ? (v.exposed_hands || []).find((e) => e.seat === i) : null;
  const seen = si && si.seat === i && (v.stand_in_hand || []).length ? v.stand_in_hand : null;  // to the sitter alone
  const exposed = open ? open.hand : seen;
  const shown = (v.shown || []).filter((s) => s.seat === i).flatMap((s) => s.cards);
  const backs = exposed ? null : el("div", { class: "backs", role: "img", "aria-label": plural(v.hand_sizes[i], "card") },
    Array.from({ length: v.hand_sizes[i] }, () => el("div", { class: "card back" })));
  return el("div", { class: `seat${v.to_move === i ? " turn" : ""}`, "data-seat": i },
    el("div", { class: "name" }, seatLabel(i, table, you), badges),
    backs,
    exposed ? el("div", { class: "mini hand", title: seen ? "the hand you may take over" : "hand laid open" }, exposed.map((c) => cardEl(c, v.cards, table.suits))) : null,
    shown.length ? el("div", { class: "mini hand", title: "shown" }, shown.map((c) => cardEl(c, v.cards, table.suits))) : null,
    el("div", { class: "stats" }, plural(v.tricks[i], "trick"), v.discard_counts[i] ? ` · changed ${v.discard_counts[i]}` : ""),
    el("div", { class: "said" }, said && v.phase !== "play" ? actionText(table, v.cards, said.action, false, said.phase) : ""),
    v.to_move === i && page.timerText ? el("div", { class: "clock" }, page.timerText) : null);
}

// The seat that played the k-th card of trick t (counted from 0): seats in the order of play, skipping those
// out of play and, with hands of unequal size (v.short_hands: the tricks each seat plays to), those whose hands
// ran out before that trick.
export function playSeat(v, leader, k, n, t) {
  const out = [...(v.sitting_out || []), ...(v.out_of_play || [])];
  (v.short_hands || []).forEach((tricks, s) => { if (tricks <= t) out.push(s); });
  let s = leader;
  for (let i = 0; i < k; i++) {
    do { s = (s + 1) % n; } while (out.includes(s));
  }
  return s;
}

export function trickArea(msg, page) {
  const { table, state: v, you } = msg;
  const n = table.seats.length;
  const plays = (leader, cards, t) => cards.map((c, k) => ({ seat: playSeat(v, leader, k, n, t), card: c }));
  const shown = (trick, cls, winner) => el("div", { class: `trick ${cls}`, id: "trick", "aria-label": "the trick" },
    plays(trick.leader, trick.cards, trick.index).map((p) => el("div", { class: `play${p.seat === winner ? " win" : ""}`, "data-seat": p.seat },
      cardEl(p.card, v.cards, table.suits), el("span", {}, seatLabel(p.seat, table, you)))));
  if (page.hold) {
    const t = page.hold;
    return el("div", {}, shown(t, "held", t.winner),
      el("div", { class: "caption", id: "trick-caption" }, `${seatLabel(t.winner, table, you)} ${t.winner === you ? "win" : "wins"} the trick`));
  }
  if (v.current_trick.length) {
    return shown({ leader: v.trick_leader, cards: v.current_trick, index: v.trick_history.length }, "", null);
  }
  const last = v.trick_history[v.trick_history.length - 1];
  if (last && v.phase !== "done") {
    return el("div", {}, shown({ ...last, index: v.trick_history.length - 1 }, "last", last.winner),
      el("div", { class: "caption", id: "trick-caption" }, `Last trick to ${seatLabel(last.winner, table, you)}`));
  }
  const centre = [];
  if (v.turned) centre.push(el("div", { class: "play" }, cardEl(v.turned, v.cards, table.suits), el("span", {}, "turned up")));
  else if (v.turn_up && v.turn_up_on_talon) {  // the card turned for the deal, still on the talon: public
    centre.push(el("div", { class: "play", id: "turn-up-card" }, cardEl(v.turn_up, v.cards, table.suits), el("span", {}, "turned up")));
  }
  if (v.talon_size) centre.push(el("div", { class: "play" }, el("div", { class: "card back", role: "img", "aria-label": "the talon" }), el("span", {}, `talon · ${v.talon_size}`)));
  return el("div", { class: "trick" }, centre);
}

// What the person at this screen is asked to do now, in words.
export function promptText(msg, page) {
  const { table, state: v, you } = msg;
  if (v.phase === "done") return table.finished ? "The session is over." : "The deal is over.";
  if (sitsOut(v, you) && v.stand_in && v.stand_in.asked && v.to_move === you) {
    return `${seatLabel(v.stand_in.seat, table, null)} has passed: bid higher on that hand to play it in that seat's place, or pass.`;
  }
  if (sitsOut(v, you)) return `You sit this deal out${table.sit_out_doc ? ` (${table.sit_out_doc.replace(/\.$/, "").toLowerCase()})` : ""}: watch the others play.`;
  if (you === null || v.to_move !== you) return `${humanize(v.phase)}: waiting for ${seatLabel(v.to_move, table, you)}…`;
  const verbs = new Set(v.controls.map((c) => c.verb));
  const ch = v.choose;
  if (ch && verbs.has("discard")) {
    const range = ch.min === ch.max ? `exactly ${plural(ch.max, "card")}` : ch.min ? `${ch.min} to ${ch.max} cards` : `up to ${plural(ch.max, "card")}`;
    if (!ch.then) return `Your turn: lay away ${range}. Choose them, then confirm.`;
    return `Your turn: ${ch.taken ? "put away" : "discard"} ${range}${ch.taken ? "" : ", then draw as many"}. Choose the cards, then confirm.`;
  }
  if (verbs.has("play")) return v.current_trick.length ? `Your turn: play a card (${cardText(v.current_trick[0], v.cards)} was led).` : "Your turn: lead a card.";
  if (v.phase === "auction" && verbs.has("bid")) return "Your turn to bid: choose a contract, or pass.";
  if (v.phase === "auction" && [...verbs].every((x) => x === "pass")) return "Your turn: no bid is open to you any more — pass.";
  if (v.phase === "auction") return "Your turn to bid: hold the bid, or pass.";
  if (verbs.has("trump")) return "Your turn: name the trump suit.";
  if (verbs.has("give")) return "Your turn: choose the card to give.";
  if (verbs.has("demand")) return "Your turn: choose the card you ask for (its holder gives it to you).";
  if (verbs.has("call")) return "Your turn: call a card (its holder becomes your partner).";
  return `Your turn: ${page.phaseDoc || humanize(v.phase)}`;
}

// Buttons for the legal actions that are not a card of the hand, each with its line (on hover, or ⓘ on a phone).
export function controlBar(msg, page) {
  const { table, state: v } = msg;
  const choosing = v.choose && v.controls.some((c) => c.verb === "discard");
  const outside = v.controls.filter((c) => !c.in_hand && !(choosing && c.verb === "draw"));
  const words = outside.filter((c) => !c.card);
  const byVerb = new Map();
  for (const c of outside.filter((x) => x.card)) {
    if (!byVerb.has(c.verb)) byVerb.set(c.verb, []);
    byVerb.get(c.verb).push(c);
  }
  const doc = el("div", { class: "control-doc", id: "control-doc", "aria-live": "polite" }, page.controlDoc || "");
  const explain = (c) => { page.controlDoc = `${c.label}: ${c.doc}`; doc.textContent = page.controlDoc; };
  return el("div", { class: "controls-wrap" },
    el("div", { class: "controls", id: "controls" },
      words.map((c) => el("span", { class: "control" },
        el("button", { class: c.verb === "pass" ? "pass" : "", "data-action": c.action, "data-focus": `act:${c.action}`,
          title: c.doc || null, onclick: () => page.act([c.action]), onmouseenter: () => c.doc && explain(c), onfocus: () => c.doc && explain(c) }, c.label),
        c.doc ? el("button", { class: "info", type: "button", "aria-label": `What is ${c.label}?`, "data-focus": `doc:${c.action}`, onclick: () => explain(c) }, "?") : null)),
      [...byVerb.entries()].map(([verb, cs]) => el("div", { class: "choose" },
        el("div", { class: "choose-h" }, `${humanize(verb)} a card:`),
        el("div", { class: "choose-cards" }, cs.map((c) => cardEl(c.card, v.cards, table.suits,
          { tag: "button", class: "legal", "data-action": c.action, "data-focus": `act:${c.action}`, say: c.label, onclick: () => page.act([c.action]) })))))),
    doc);
}

// The cards chosen for a discard or a lay-away, with the count and the button that sends them.
export function choosePanel(msg, page) {
  const { state: v } = msg;
  const ch = v.choose;
  if (!ch || !v.controls.some((c) => c.verb === "discard")) return null;
  const k = page.selected.size;
  const ok = k >= ch.min && k <= ch.max;
  const what = ch.then ? (ch.taken ? "Put away" : "Discard") : "Lay away";
  const label = !ch.then ? `${what} ${plural(k, "card")}` : k ? `${what} ${k} and ${ch.taken ? "go on" : `draw ${k}`}` : "Keep my hand (draw none)";
  const need = ch.min === ch.max ? `exactly ${ch.max}` : ch.min ? `${ch.min} to ${ch.max}` : `0 to ${ch.max}`;
  const send = () => page.act([...[...page.selected].map((c) => `discard ${c}`), ...(ch.then ? [ch.then] : [])]);
  return el("div", { class: "choose-bar", id: "choose" },
    el("span", { id: "chosen-count", "aria-live": "polite" }, `${plural(k, "card")} chosen (${need})`),
    el("button", { id: "confirm", "data-focus": "confirm", disabled: !ok, onclick: send }, label),
    k ? el("button", { class: "secondary", id: "clear", "data-focus": "clear", onclick: () => page.pick(null) }, "Clear") : null);
}

export function handRow(msg, page) {
  const { table, state: v, you } = msg;
  const byCard = new Map(v.controls.filter((c) => c.in_hand).map((c) => [c.card, c]));
  const choosing = v.choose && v.controls.some((c) => c.verb === "discard");
  let group = null;
  const wait = v.phase === "done" ? "The deal is over." : `Not your turn: waiting for ${seatLabel(v.to_move, table, you)}.`;
  return el("div", { class: `hand${v.hand.length > 14 ? " big" : ""}`, id: "hand", role: "group", "aria-label": "your hand" }, v.hand.map((name) => {
    const f = v.cards[name] || {};
    const g = f.trump ? "trump" : f.suit;
    const gap = group !== null && g !== group ? " gap" : "";
    group = g;
    const ctl = byCard.get(name);
    const reason = v.refused[name];
    const focus = `card:${name}`;
    if (ctl && choosing) {
      const on = page.selected.has(name);
      return cardEl(name, v.cards, table.suits, { tag: "button", class: `legal pick${on ? " picked" : ""}${gap}`, "data-action": ctl.action,
        "data-focus": focus, "aria-pressed": on ? "true" : "false", say: on ? "chosen" : null, onclick: () => page.pick(name) });
    }
    if (ctl) return cardEl(name, v.cards, table.suits, { tag: "button", class: `legal${gap}`, "data-action": ctl.action, "data-focus": focus, onclick: () => page.act([ctl.action]) });
    if (reason) return cardEl(name, v.cards, table.suits, { tag: "button", class: `refused${gap}`, "aria-disabled": "true", "data-focus": focus,
      say: reason, title: reason, "data-reason": reason, onclick: () => page.tell(reason) });
    return cardEl(name, v.cards, table.suits, { tag: "button", class: `idle${gap}`, "data-focus": focus, "aria-disabled": "true",
      onclick: () => page.tell(you !== null && v.to_move === you ? "This card cannot be chosen now." : wait) });
  }));
}

export function infoBox(msg) {
  const { table, state: v, you } = msg;
  const rows = [["Contract", v.contract ? el("span", { title: table.contract_docs[v.contract] || "" }, contractText(table, v.contract)) : "—"],
    ["Declarer", v.declarer === null ? "—" : seatLabel(v.declarer, table, you)],
    ["Trumps", v.trump ? suitText(table, v.trump) : "—"]];
  if (v.called) rows.push(["Called", cardText(v.called, v.cards)]);
  if (v.partner !== null && v.partner !== undefined) rows.push(["Partner", seatLabel(v.partner, table, you)]);
  if (v.talon_size) rows.push(["Talon", plural(v.talon_size, "card")]);
  if (v.turn_up) {  // the card turned for the deal (deal.turn_up) and where every seat knows it is
    const where = v.turn_up_holder !== null && v.turn_up_holder !== undefined ? ` (${seatLabel(v.turn_up_holder, table, you)} holds it)`
      : v.turn_up_on_talon ? " (on the talon)" : "";
    rows.push(["Turned up", el("span", { id: "turn-up" }, cardText(v.turn_up, v.cards) + where)]);
  }
  rows.push(["Pool", `${v.pool}`]);
  if ((v.dealer_draw || []).length) {  // the session's first deal: the cards drawn for its dealer, public
    rows.push(["Drawn to deal", el("span", { id: "dealer-draw" },
      v.dealer_draw.map((d) => `${seatLabel(d.seat, table, you)} ${cardText(d.card, v.cards)}`).join(", "))]);
  }
  if ((v.seat_draw || []).length) {  // the session's first deal: the card each player drew, and so his seat
    rows.push(["Seats drawn", el("span", { id: "seat-draw" },
      v.seat_draw.map((d) => `${seatLabel(d.seat, table, you)} ${cardText(d.card, v.cards)} (seat ${d.seat})`).join(", "))]);
  }
  if (v.cut) rows.push(["Cut", el("span", { id: "cut" }, `${seatLabel(v.cut.seat, table, you)} lifted ${plural(v.cut.at, "card")}`)]);
  const cards = (xs) => xs.map((c) => cardText(c, v.cards)).join(" ");
  if (v.my_discards.length) rows.push(["You put away", cards(v.my_discards)]);
  if (v.my_draws.length) rows.push(["You drew", cards(v.my_draws)]);
  if (v.leftover_shown.length) rows.push(["Left in the stock", cards(v.leftover_shown)]);
  const doc = v.contract && table.contract_docs[v.contract];
  return el("div", { class: "box", id: "info" }, el("h3", {}, "This deal"),
    el("dl", { class: "kv" }, rows.flatMap(([k, x]) => [el("dt", {}, k), el("dd", {}, x)])),
    doc ? el("p", { class: "doc small", id: "contract-doc" }, doc) : null);
}

// The values carried from deal to deal: those this deal began with and, once it is over, those for the next.
export function sessionBox(msg) {
  const { table, state: v } = msg;
  if (!table.carry.length || !v.session) return null;
  const after = v.result ? v.result.session_after : null;
  const items = table.carry.flatMap((c) => [
    el("dt", { "data-name": c.name, title: c.doc }, c.label),
    el("dd", { class: "now", "data-name": c.name }, carriedText(table.suits, c.type, v.session[c.name]),
      after ? el("div", { class: "next small" }, `next deal: ${carriedText(table.suits, c.type, after[c.name])}`) : null),
    c.doc ? el("div", { class: "doc small" }, c.doc) : null]);
  return el("div", { class: "box", id: "session", "data-session": JSON.stringify(v.session) },
    el("h3", {}, "Carried from deal to deal"), el("dl", { class: "kv carried" }, items));
}

export function historyBox(msg) {
  const { table, state: v, you } = msg;
  const items = [];
  let phase = null;
  for (const a of v.actions || []) {
    if (a.phase === "play") continue;
    if (a.phase !== phase) { phase = a.phase; items.push(el("li", { class: "phase-h" }, humanize(phase))); }
    items.push(el("li", {}, el("span", { class: "who" }, `${seatLabel(a.seat, table, you)} `), actionText(table, v.cards, a.action, a.seat === you, a.phase)));
  }
  return el("div", { class: "box", id: "history" }, el("h3", {}, "Bidding and exchange"),
    items.length ? el("ul", { class: "plain" }, items) : el("div", { class: "muted" }, "Nothing yet."));
}

export function tricksBox(msg) {
  const { table, state: v, you } = msg;
  if (!v.trick_history.length) return null;
  const n = table.seats.length;
  return el("div", { class: "box", id: "tricks" }, el("h3", {}, "Tricks"),
    el("ol", { class: "tricklist mini" }, v.trick_history.map((t, j) => el("li", { class: "row" },
      el("span", { class: "small n" }, `${j + 1}.`),
      t.cards.map((c, k) => {
        const s = playSeat(v, t.leader, k, n, j);
        return el("span", { class: `played${s === t.winner ? " win" : ""}` }, cardEl(c, v.cards, table.suits, { say: `played by ${seatLabel(s, table, you)}` }),
          el("span", { class: "by" }, s === you ? "You" : (table.names[s] || `S${s}`)));
      }),
      el("span", { class: "w" }, `→ ${seatLabel(t.winner, table, you)}`)))));
}

export function sheetBox(msg) {
  const { table, you } = msg;
  const n = table.seats.length;
  const head = el("tr", {}, el("th", {}, "Deal"), Array.from({ length: n }, (_, i) => el("th", {}, i === you ? "You" : (table.names[i] || `S${i}`))));
  const rows = table.sheet.map((d) => el("tr", { title: `${humanize(d.outcome)}${d.contract ? " · " + contractText(table, d.contract) : ""}` },
    el("td", {}, d.close ? "Session's close" : `${d.deal}. ${humanize(d.outcome)}`), d.payments.map((p) => el("td", {}, signed(p)))));
  const total = el("tr", { class: "total" }, el("td", {}, "Total"), table.ledger.map((p) => el("td", {}, signed(p))));
  return el("div", { class: "box", id: "sheet" }, el("h3", {}, `Score sheet · deal ${table.deal} of ${table.deals}`),
    el("table", { class: "sheet" }, el("thead", {}, head), el("tbody", {}, rows, total)),
    el("div", { class: "small", style: { marginTop: ".3rem" } }, `Pool: ${table.pool}`));
}

function accountTable(msg) {
  const { table, state: v, you } = msg;
  if (!v.account || !v.account.length) return null;
  const who = (s) => (s === null ? "the pool" : seatLabel(s, table, you));
  return el("div", { class: "account", id: "account" }, el("h3", {}, "Who pays whom, and why"),
    el("table", {}, el("tbody", {}, v.account.map((e) => el("tr", {},
      el("td", {}, humanize(e.label)),
      el("td", {}, `${who(e.from)} → ${who(e.to)}`),
      el("td", { class: "amt" }, e.amount),
      el("td", { class: "why" }, e.why || ""))))));
}

// Who came out ahead: the seats paid more than they paid.
function winners(msg) {
  const { table, state: v, you } = msg;
  const up = v.result.payments.map((p, i) => [p, i]).filter(([p]) => p > 0).map(([, i]) => seatLabel(i, table, you));
  if (!up.length) return "Nobody wins this deal.";
  const list = up.length > 1 ? `${up.slice(0, -1).join(", ")} and ${up[up.length - 1]}` : up[0];
  return `${list} ${up.length > 1 || up[0] === "You" ? "win" : "wins"}.`;
}

export function resultPanel(msg, page) {
  const { table, state: v, you } = msg;
  const r = v.result;
  if (!r) return null;
  const n = r.payments.length;
  const cls = (p) => (p > 0 ? "plus" : p < 0 ? "minus" : "");
  const deal = table.deal;
  const q = `?t=${encodeURIComponent(page.token)}`;
  const mine = you !== null ? v.account.filter((e) => e.from === you || e.to === you) : [];
  const sat = sitsOut(v, you) ? el("p", { id: "sat-out" }, `You sat this deal out.${mine.length ? " What you pay or get anyway: " +
    mine.map((e) => `${humanize(e.label)} ${e.from === you ? "−" : "+"}${e.amount}`).join(", ") + "." : " You neither pay nor get anything."}`) : null;
  const outcomeDoc = table.outcome_docs[r.outcome];
  const actions = el("div", { class: "actions" },
    you !== null && !table.finished ? el("button", { id: "next", "data-focus": "next", onclick: page.nextDeal }, "Next deal") : null,
    table.finished ? el("strong", {}, "The session is over.") : null,
    table.finished && table.rematch ? el("a", { class: "button", id: "rematch-link", href: table.rematch }, "Join the new session") : null,
    table.finished && !table.rematch && you !== null ? el("button", { id: "rematch", "data-focus": "rematch", onclick: page.rematch }, "New session, same seats") : null,
    el("a", { class: "button secondary", href: `/replay?table=${encodeURIComponent(table.id)}&deal=${deal}&t=${encodeURIComponent(page.token)}` }, "Replay this deal"),
    el("a", { class: "button secondary", id: "download", download: `${table.id}-deal${deal}.json`,
      href: `/api/tables/${encodeURIComponent(table.id)}/deals/${deal}/record${q}` }, "Download the record"));
  return el("section", { class: "result", id: "result", "data-result": JSON.stringify(r), "aria-labelledby": "result-h" },
    el("h2", { id: "result-h", title: outcomeDoc || null }, humanize(r.outcome),
      r.contract ? el("span", { class: "muted small" }, ` — ${contractText(table, r.contract)}${r.trump ? ", " + suitText(table, r.trump) : ""}`) : null),
    el("p", { class: "winners", id: "winners" }, winners(msg)),
    v.reason ? el("p", { class: "reason", id: "reason" }, v.reason) : null,
    sat,
    actions,
    r.declarer !== null ? el("div", {}, `Declarer: ${seatLabel(r.declarer, table, you)}`) : null,
    el("table", { id: "payments" }, el("thead", {}, el("tr", {}, el("th", {}, "Seat"), el("th", {}, "Tricks"), el("th", {}, "Pays / gets"))),
      el("tbody", {}, Array.from({ length: n }, (_, i) => el("tr", { "data-seat": i },
        el("td", {}, seatLabel(i, table, you)), el("td", {}, r.tricks[i]),
        el("td", { class: cls(r.payments[i]) }, signed(r.payments[i])))))),
    el("div", { class: "small" }, `Pool ${r.pool_before} → ${r.pool_after}`),
    accountTable(msg));
}

// The links of the seats still to come, for the one who made the table (kept in this browser when it did).
export function invitePanel(msg, links) {
  const { table, you } = msg;
  if (!links || you === null) return null;
  const waiting = links.seats.filter((s) => s.url && s.seat !== you && !table.here[s.seat]);
  if (!waiting.length) return null;
  const full = (u) => location.origin + u;
  return el("div", { class: "invite", id: "invite" },
    el("strong", {}, "Waiting for the others to join. "), "Send each person the link of their seat:",
    el("ul", { class: "links" }, waiting.map((s) => el("li", {}, `${seatLabel(s.seat, table, you)}: `,
      el("input", { readonly: true, value: full(s.url), "aria-label": `link of seat ${s.seat}`, class: "invite-link", onclick: (e) => e.target.select() }),
      el("button", { class: "secondary", type: "button", onclick: () => navigator.clipboard && navigator.clipboard.writeText(full(s.url)) }, "Copy")))));
}
