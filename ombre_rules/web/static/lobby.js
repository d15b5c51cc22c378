// The lobby: every variant the server offers, and the upload of a house-rule file.
import { api, el, header } from "./common.js";

const app = document.getElementById("app");

function tile(v) {
  const href = `/variant/${encodeURIComponent(v.key)}`;
  const meta = [];
  if (v.players) meta.push(el("span", {}, `${v.players} players`));
  if (v.options && v.options.length) meta.push(el("span", {}, `${v.options.length} option${v.options.length > 1 ? "s" : ""}`));
  meta.push(el("span", { class: "tag" }, v.origin));
  if (v.errors) meta.push(el("span", { class: "tag warn" }, "cannot be played now"));
  return el("a", { class: "tile", href, "data-key": v.key, title: v.errors ? v.errors.join("\n") : (v.doc || null) },
    el("div", { class: "t" }, v.title),
    el("div", { class: "muted small mono" }, v.id || v.file),
    v.doc ? el("div", { class: "small doc" }, v.doc) : null,
    el("div", { class: "meta" }, meta));
}

function uploadBox(onDone) {
  const file = el("input", { type: "file", accept: ".yaml,.yml", id: "upload-file", "aria-label": "a house-rule file (YAML)" });
  const out = el("div", { id: "upload-result" });
  const go = el("button", { id: "upload-go", type: "submit" }, "Check and add");
  const form = el("form", { class: "panel", onsubmit: async (ev) => {
    ev.preventDefault();
    out.replaceChildren();
    const f = file.files[0];
    if (!f) { out.append(el("pre", { class: "errors" }, "Choose a file first.")); return; }
    go.disabled = true;
    out.append(el("p", { class: "muted small", id: "upload-wait" }, "Checking: the file is loaded with every option, its rulebook made and deals played with it…"));
    try {
      const v = await api(`/api/uploads?name=${encodeURIComponent(f.name)}`,
        { method: "POST", body: await f.arrayBuffer(), headers: { "Content-Type": "application/yaml" } });
      out.replaceChildren();
      out.append(el("div", { class: "ok-box" }, `${v.file} loads: `, el("a", { href: `/variant/${encodeURIComponent(v.key)}` }, v.title)));
      onDone();
    } catch (e) {
      out.replaceChildren(el("pre", { class: "errors", id: "upload-errors" }, e.message));
    } finally {
      go.disabled = false;
    }
  } },
    el("p", { class: "muted small" }, "A house rule is a YAML file that extends a built-in variant (", el("code", {}, "extends: ombre"),
      ") and gives what it changes. It is checked as ", el("code", {}, "ombre check"), " does, its rulebook is made and deals are played " +
      "with it before it is kept; problems are shown with their line and column."),
    el("div", { style: { display: "flex", gap: ".6rem", alignItems: "center", flexWrap: "wrap" } }, file, go), out);
  return form;
}

async function render() {
  const list = el("div", { class: "grid", id: "variants" }, el("p", { class: "muted" }, "Loading…"));
  app.replaceChildren(header("lobby"), el("main", { class: "page" },
    el("h1", {}, "Choose a game"),
    el("p", { class: "muted" }, "Every game below is a rules file. Open one to read its rules, set its options and sit down at a table."),
    list,
    el("h2", {}, "Add a house rule"),
    uploadBox(load)));
  async function load() {
    try {
      const vs = await api("/api/variants");
      list.replaceChildren(...vs.map(tile));
    } catch (e) {
      list.replaceChildren(el("pre", { class: "errors" }, e.message));
    }
  }
  await load();
}

render();
