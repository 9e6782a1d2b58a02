// sheetgen serve: the page's script. It draws the marks into the sheets the server drew
// (render/svg.py), sends each tap and each photo to the server, shows every state the
// server sends (server-sent events) and the doubts the photos left, each with the photo's
// picture of its box. It never scores: the totals come from the game's own scorer. On a
// kept game's page it draws the kept marks only; on every page it asks before a form that
// says so (data-confirm) is sent.
"use strict";

(function () {
  const SVG = "http://www.w3.org/2000/svg";
  const PEN = "#1f3a93";
  const token = document.querySelector('meta[name="sheetgen-token"]').content;
  const body = document.body;
  const gid = body.dataset.game;
  const read = (id) => {
    const el = document.getElementById(id);
    return el ? JSON.parse(el.textContent) : null;
  };
  let state = read("state");
  const info = read("info") || {};
  const words = info.words || {};
  const message = document.querySelector(".message");

  function say(text) {
    if (message) message.textContent = text || "";
  }

  // ------------------------------------------------------------------ the boxes
  const boxes = new Map(); // "player|field" -> [element]
  document.querySelectorAll(".box").forEach((el) => {
    const key = el.dataset.player + "|" + el.dataset.box;
    if (!boxes.has(key)) boxes.set(key, []);
    boxes.get(key).push(el);
  });

  function rect(el) {
    return el.dataset.rect.split(" ").map(Number);
  }

  function valueOf(player, field) {
    const marks = state.marks[player - 1] || {};
    return marks[field];
  }

  function doubtOf(player, field) {
    return (state.doubts || []).find((d) => d.player === player && d.box === field);
  }

  function cropUrl(player, field) {
    return `/game/${gid}/crop/${player}/${encodeURIComponent(field)}`;
  }

  function node(name, attrs) {
    const el = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, v);
    return el;
  }

  function drawMark(el, value, computed) {
    const layer = el.querySelector(".mark");
    while (layer.firstChild) layer.removeChild(layer.firstChild);
    const [x, y, w, h] = rect(el);
    const kind = el.dataset.kind;
    const mode = el.dataset.mode;
    const ticked = value === true;
    if (kind !== "write") {
      el.setAttribute("aria-checked", ticked ? "true" : "false");
      if (!ticked) return;
      if (kind === "round") {
        layer.appendChild(node("circle", { cx: x + w / 2, cy: y + h / 2, r: Math.min(w, h) / 2 - 0.1,
          fill: "none", stroke: PEN, "stroke-width": 0.6 }));
      } else if (kind === "mini") {
        layer.appendChild(node("rect", { x: x + 0.3, y: y + 0.3, width: w - 0.6, height: h - 0.6, fill: PEN }));
      } else {
        const k = Math.min(w, h) * 0.24;
        layer.appendChild(node("path", { d: `M${x + k} ${y + k}L${x + w - k} ${y + h - k}M${x + k} ${y + h - k}L${x + w - k} ${y + k}`,
          stroke: PEN, "stroke-width": 0.7, "stroke-linecap": "round", fill: "none" }));
      }
      return;
    }
    const text = computed !== undefined ? computed : value;
    if (text === undefined || text === null || text === "") {
      el.removeAttribute("data-value");
      return;
    }
    el.dataset.value = text;
    const choice = mode === "choice" ? (info.choices || {})[text] : null;
    if (choice) {
      const pad = Math.min(w, h) * 0.1;
      const size = Math.min(w, h) - 2 * pad;
      const k = size / 36;
      const use = node("use", { href: "#" + choice.symbol,
        transform: `translate(${x + (w - size) / 2} ${y + (h + size) / 2}) scale(${k} ${-k})` });
      layer.appendChild(use);
      return;
    }
    const size = Math.min(h * 0.62, 7);
    const t = node("text", { x: x + w / 2, y: y + h / 2 + size * 0.36, "text-anchor": "middle",
      "font-size": size, "font-family": "sg-sans, 'DejaVu Sans', sans-serif",
      fill: computed !== undefined ? "#555" : PEN, class: computed !== undefined ? "computed" : "written" });
    t.textContent = String(text);
    layer.appendChild(t);
  }

  function drawAll() {
    for (const [key, els] of boxes) {
      const [player, field] = [Number(key.split("|")[0]), key.slice(key.indexOf("|") + 1)];
      const computedSet = (state.computed || [])[player - 1] || {};
      for (const el of els) {
        const mode = el.dataset.mode;
        let computed;
        if (mode === "computed") computed = computedSet[field];
        if (mode === "name") computed = state.players[player - 1];
        drawMark(el, valueOf(player, field), computed);
        const doubt = doubtOf(player, field);
        if (doubt) el.dataset.unsure = doubt.kind;
        else el.removeAttribute("data-unsure");
        el.classList.remove("warn");
        const title = el.querySelector("title");
        if (title) title.remove();
      }
    }
    for (const w of state.warnings || []) {
      if (w.player === null || w.player === undefined || !w.box) continue;
      for (const el of boxes.get(w.player + 1 + "|" + w.box) || []) {
        el.classList.add("warn");
        const title = node("title");
        title.textContent = w.text;
        el.insertBefore(title, el.firstChild);
      }
    }
  }

  // ------------------------------------------------------------------ the scores
  function cell(tag, text, attrs) {
    const el = document.createElement(tag);
    el.textContent = text;
    for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, v);
    return el;
  }

  function drawScores() {
    const score = state.score;
    const tbody = document.querySelector(".scores .breakdown");
    if (!tbody) return;
    while (tbody.firstChild) tbody.removeChild(tbody.firstChild);
    const rows = (state.categories || []).slice();
    if (score) {
      for (const p of score.players) {
        for (const key of Object.keys(p.breakdown)) {
          if (!rows.some((r) => r[0] === key)) rows.push([key, key]);
        }
      }
      for (const [key, label] of rows) {
        const tr = document.createElement("tr");
        tr.appendChild(cell("th", label, { scope: "row" }));
        for (const p of score.players) tr.appendChild(cell("td", String(p.breakdown[key] ?? "")));
        tbody.appendChild(tr);
      }
      for (const [label, values] of state.tiebreak || []) {
        const tr = document.createElement("tr");
        tr.className = "tiebreak";
        tr.appendChild(cell("th", label, { scope: "row" }));
        for (const v of values) tr.appendChild(cell("td", v));
        tbody.appendChild(tr);
      }
    }
    document.querySelectorAll("[data-total]").forEach((el) => {
      const p = score ? score.players[Number(el.dataset.player) - 1] : null;
      el.textContent = p ? String(p.total) : "";
    });
    document.querySelectorAll("[data-rank]").forEach((el) => {
      const p = score ? score.players[Number(el.dataset.player) - 1] : null;
      el.textContent = p ? String(p.rank) + (score.winners.includes(p.name) ? " ★" : "") : "";
    });
    const winners = document.querySelector(".scores .winners");
    if (winners) winners.textContent = score ? words.winners + words.colon + " " + score.winners.join(", ") : "";
    const kept = document.querySelector(".scores .kept");
    if (kept) {
      while (kept.firstChild) kept.removeChild(kept.firstChild);
      if (state.kept) {
        kept.appendChild(document.createTextNode((words.kept || "Kept as game") + " "));
        kept.appendChild(cell("a", String(state.kept), { href: `/history/${state.kept}?lang=${document.documentElement.lang}` }));
      }
    }
    body.classList.toggle("finished", Boolean(state.kept));
    for (const [cls, list] of [["warnings", (state.warnings || []).map((w) => w.text)], ["errors", state.errors || []]]) {
      const ul = document.querySelector(".scores ." + cls);
      if (!ul) continue;
      while (ul.firstChild) ul.removeChild(ul.firstChild);
      for (const text of list) ul.appendChild(cell("li", text));
    }
    const undo = document.querySelector('[data-act="undo"]');
    const redo = document.querySelector('[data-act="redo"]');
    if (undo) undo.disabled = !state.undo || Boolean(state.kept);
    if (redo) redo.disabled = !state.redo || Boolean(state.kept);
    const finish = document.querySelector('[data-act="finish"]');
    if (finish) finish.disabled = Boolean(state.kept) || !score;
    drawDoubts();
  }

  // ------------------------------------------------------------------ the doubts
  function doubtsText(n) {
    return n === 1 ? words.doubt_left : (words.doubts_left || "").replace("{n}", String(n));
  }

  function frameTitle(el) {
    // the title of the frame (sheet part) that holds a box
    const [x, y, w, h] = rect(el);
    const page = el.ownerSVGElement && el.ownerSVGElement.dataset.page;
    for (const [p, , title, fx, fy, fw, fh] of info.sections || []) {
      if (p === page && x >= fx - 0.01 && y >= fy - 0.01 && x + w <= fx + fw + 0.01 && y + h <= fy + fh + 0.01) return title;
    }
    return "";
  }

  function drawDoubts() {
    const doubts = state.doubts || [];
    const n = doubts.length;
    document.querySelectorAll("[data-doubts]").forEach((el) => {
      const k = doubts.filter((d) => d.player === Number(el.dataset.player)).length;
      el.textContent = k ? String(k) : "";
    });
    const row = document.querySelector(".doubts-row");
    if (row) row.hidden = !n;
    const left = document.querySelector(".scores .doubts-left");
    if (left) left.textContent = n && !state.kept ? doubtsText(n) : "";
    const link = document.querySelector(".doubts-link");
    if (link) {
      link.hidden = !n || Boolean(state.kept);
      link.textContent = `${words.doubts} (${n})`;
    }
    const section = document.querySelector("section.doubts");
    if (!section) return;
    section.hidden = !n || Boolean(state.kept);
    section.querySelector(".left").textContent = n ? doubtsText(n) : "";
    // the numbers a photo read, taken as read at once (each is also confirmed on its own)
    const read = doubts.filter((d) => d.kind === "read").length;
    const confirm = section.querySelector('[data-act="confirm"]');
    if (confirm) {
      confirm.hidden = !read;
      confirm.textContent = read === 1 ? words.confirm_read_one : (words.confirm_read || "").replace("{n}", String(read));
    }
    const list = section.querySelector("ul");
    const wanted = doubts.map((d) => d.player + "|" + d.box);
    for (const li of [...list.children]) if (!wanted.includes(li.dataset.key)) li.remove();
    const have = new Set([...list.children].map((li) => li.dataset.key));
    for (const d of doubts) {
      const key = d.player + "|" + d.box;
      if (have.has(key)) continue;
      const el = (boxes.get(key) || [])[0];
      if (!el) continue;
      list.appendChild(doubtItem(d, el, key));
    }
  }

  function doubtItem(d, el, key) {
    const li = document.createElement("li");
    li.dataset.key = key;
    li.dataset.player = String(d.player);
    li.dataset.box = d.box;
    li.dataset.kind = d.kind;
    const img = document.createElement("img");
    img.className = "crop";
    img.loading = "lazy";
    img.alt = "";
    img.src = cropUrl(d.player, d.box);
    li.appendChild(img);
    const what = document.createElement("div");
    what.className = "what";
    const name = info.pad ? "" : state.players[d.player - 1] + " · ";
    what.appendChild(cell("p", name + (frameTitle(el) || d.box), { class: "where" }));
    const question = {
      unsure: words.doubt_unsure,
      cell: words.doubt_cell,
      number: words.doubt_number,
      read: words.doubt_read,
    }[d.kind];
    what.appendChild(cell("p", el.dataset.mode === "choice" ? words.doubt_cell : question, { class: "question" }));
    const answers = document.createElement("div");
    answers.className = "answers";
    if (el.dataset.mode === "tick") {
      for (const [label, value] of [[words.marked, true], [words.empty, false]]) {
        const b = cell("button", label, { type: "button", "data-answer": String(value) });
        b.addEventListener("click", () => send(d.player, d.box, value));
        answers.appendChild(b);
      }
    } else if (el.dataset.mode === "choice") {
      for (const [letter, choice] of choiceList()) {
        const b = choiceButton(letter, choice, 36);
        b.addEventListener("click", () => send(d.player, d.box, letter));
        answers.appendChild(b);
      }
    } else {
      const form = document.createElement("form");
      const input = document.createElement("input");
      input.name = "value";
      input.inputMode = "decimal";
      input.maxLength = 40;
      input.autocomplete = "off";
      if (d.kind === "read") input.value = d.value || ""; // (the number read, to confirm or correct)
      input.setAttribute("aria-label", words.doubt_number + " " + name + (frameTitle(el) || d.box));
      form.appendChild(input);
      form.appendChild(cell("button", words.ok, { type: "submit" }));
      form.addEventListener("submit", (ev) => {
        ev.preventDefault();
        send(d.player, d.box, input.value.trim());
      });
      answers.appendChild(form);
    }
    const show = cell("button", words.doubt_show, { type: "button", class: "show" });
    show.addEventListener("click", () => reveal(el));
    answers.appendChild(show);
    what.appendChild(answers);
    li.appendChild(what);
    return li;
  }

  function show(next) {
    if (!next || (state && next.game === state.game && next.version < state.version)) return;
    state = next;
    drawAll();
    drawScores();
    body.dataset.version = String(state.version);
    body.dataset.shownAt = String(Date.now()); // when this page showed it (bench/serve.py)
  }

  // ------------------------------------------------------------------ talking to the server
  let lastRefusal = null; // {status, text} of the last request refused

  async function post(path, data) {
    lastRefusal = null;
    let response;
    try {
      response = await fetch(`/game/${gid}/${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-sheetgen-token": token },
        body: JSON.stringify(data || {}),
        credentials: "same-origin",
      });
    } catch (err) {
      say(words.unreachable);
      return null;
    }
    const type = response.headers.get("content-type") || "";
    const got = type.startsWith("application/json") ? await response.json() : { error: (await response.text()).trim() };
    if (response.ok) {
      say("");
      show(got);
      return got;
    }
    if (response.status === 403 && /token/.test(got.error || "")) {
      location.reload();
      return null;
    }
    lastRefusal = { status: response.status, text: got.error || response.statusText };
    say(got.error || response.statusText);
    if (got.state) show(got.state);
    return null;
  }

  function send(player, field, after) {
    const before = valueOf(player, field);
    return post("mark", { player, box: field, before: before === undefined ? null : before, after });
  }

  function setBox(el, after) {
    return send(Number(el.dataset.player), el.dataset.box, after);
  }

  // ------------------------------------------------------------------ pickers
  const picker = document.getElementById("picker");
  const numpad = document.getElementById("numpad");
  const doubtDialog = document.getElementById("doubt");
  let target = null;

  function close() {
    for (const d of [picker, numpad, doubtDialog]) if (d) d.hidden = true;
    if (target) target.focus();
  }

  function showCrop(dialog, el) {
    // the photo's picture of a box in doubt, fetched when the box is opened
    const img = dialog.querySelector("img.crop");
    if (!img) return;
    const player = Number(el.dataset.player);
    const doubt = doubtOf(player, el.dataset.box);
    img.hidden = !doubt;
    if (doubt) img.src = cropUrl(player, el.dataset.box);
    else img.removeAttribute("src");
  }

  function choiceList() {
    return Object.entries(info.choices || {}).concat([["", { name: words.empty || "Empty" }]]);
  }

  function choiceButton(letter, choice, size) {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.letter = letter;
    button.setAttribute("aria-label", choice.name);
    if (choice.symbol) {
      const svg = node("svg", { viewBox: "0 0 36 36", width: size, height: size, "aria-hidden": "true" });
      svg.appendChild(node("use", { href: "#" + choice.symbol, transform: "translate(0 36) scale(1 -1)" }));
      button.appendChild(svg);
    } else {
      button.textContent = choice.name;
    }
    return button;
  }

  function openDoubt(el) {
    target = el;
    showCrop(doubtDialog, el);
    doubtDialog.hidden = false;
    doubtDialog.querySelector("[data-answer]").focus();
  }

  if (doubtDialog) {
    doubtDialog.querySelectorAll("[data-answer]").forEach((b) =>
      b.addEventListener("click", () => {
        const el = target;
        close();
        if (el) setBox(el, b.dataset.answer === "true");
      }),
    );
  }

  function openPicker(el) {
    target = el;
    showCrop(picker, el);
    const list = picker.querySelector(".choices");
    while (list.firstChild) list.removeChild(list.firstChild);
    const now = valueOf(Number(el.dataset.player), el.dataset.box) || "";
    for (const [letter, choice] of choiceList()) {
      const button = choiceButton(letter, choice, 44);
      button.setAttribute("aria-pressed", String(letter === now));
      button.addEventListener("click", () => {
        close();
        setBox(el, letter);
      });
      list.appendChild(button);
    }
    picker.hidden = false;
    list.firstChild.focus();
  }

  function openNumpad(el) {
    target = el;
    showCrop(numpad, el);
    const input = numpad.querySelector("input");
    const doubt = doubtOf(Number(el.dataset.player), el.dataset.box);
    numpad.querySelector("label span").textContent = doubt ? words.doubt_number : "";
    input.value = valueOf(Number(el.dataset.player), el.dataset.box) || "";
    input.setAttribute("aria-label", el.getAttribute("aria-label") || "");
    numpad.hidden = false;
    input.focus();
    input.select();
  }

  if (numpad) {
    numpad.querySelector("form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const el = target;
      const value = numpad.querySelector("input").value.trim();
      close();
      if (el) setBox(el, value);
    });
  }
  document.querySelectorAll("[data-close]").forEach((b) => b.addEventListener("click", close));
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape") close();
  });

  function activate(el) {
    if (!gid) return; // a kept game's sheets: to look at
    if (state.kept) {
      say(words.kept ? words.kept + " " + state.kept : "");
      return;
    }
    const mode = el.dataset.mode;
    const doubt = doubtOf(Number(el.dataset.player), el.dataset.box);
    if (mode === "tick" && doubt) openDoubt(el);
    else if (mode === "tick") setBox(el, valueOf(Number(el.dataset.player), el.dataset.box) !== true);
    else if (mode === "choice") openPicker(el);
    else if (mode === "number" || mode === "text") openNumpad(el);
  }

  document.addEventListener("click", (ev) => {
    const el = ev.target.closest && ev.target.closest(".box");
    if (el) activate(el);
  });
  document.addEventListener("keydown", (ev) => {
    const el = ev.target.closest && ev.target.closest(".box");
    if (el && (ev.key === " " || ev.key === "Enter")) {
      ev.preventDefault();
      activate(el);
    }
  });

  document.querySelectorAll("[data-act]").forEach((button) => {
    button.addEventListener("click", async () => {
      const act = button.dataset.act;
      if (act !== "finish") return post(act);
      const n = (state.doubts || []).length;
      if (n && !window.confirm(words.finish_doubts.replace("{n}", String(n)))) return;
      const done = await post("finish", { again: false, doubts: n > 0 });
      if (!done && lastRefusal && /already kept/.test(lastRefusal.text) && window.confirm(words.finish_again)) {
        post("finish", { again: true, doubts: n > 0 });
      }
    });
  });

  // ------------------------------------------------------------------ photos
  function photoStatus(player, text, progress, refused) {
    const box = document.querySelector(`.photo[data-player="${player}"]`);
    if (!box) return;
    const bar = box.querySelector("progress");
    const status = box.querySelector(".photo-status");
    status.textContent = text;
    status.classList.toggle("refused", Boolean(refused));
    bar.hidden = progress === null;
    if (progress !== null) {
      if (progress === undefined) bar.removeAttribute("value");
      else bar.value = progress;
    }
  }

  const STAGES = { queued: 5, decode: 15, find: 35, read: 55, fill: 90 };

  function count(n, what) {
    // "no doubt", "1 doubt", "3 doubts" in the page's language
    const key = n === 0 ? "none" : n === 1 ? "one" : "many";
    return (words[`${what}_${key}`] || "{n}").replace("{n}", String(n));
  }

  function stageText(event) {
    const text = words["stage_" + event.stage] || "";
    const page = event.of > 1 ? ` (${words.stage_page.replace("{n}", event.n).replace("{of}", event.of)})` : "";
    return text + page + "…";
  }

  function photoEvent(event) {
    if (event.stage === "refused") photoStatus(event.player, event.message, null, true);
    else if (event.stage === "done") {
      const text = words.stage_done.replace("{marked}", count(event.marked, "box")).replace("{doubts}", count(event.doubts, "doubt"));
      photoStatus(event.player, text, null);
    } else photoStatus(event.player, stageText(event), STAGES[event.stage]);
  }

  function upload(player, file) {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `/game/${gid}/photo?player=${player}`);
    xhr.setRequestHeader("x-sheetgen-token", token);
    xhr.setRequestHeader("content-type", file.type || "application/octet-stream");
    xhr.upload.addEventListener("progress", (ev) => {
      if (!ev.lengthComputable) return;
      const pct = Math.round((100 * ev.loaded) / ev.total);
      photoStatus(player, words.stage_sending.replace("{pct}", pct), Math.round(pct * 0.05));
    });
    xhr.addEventListener("load", () => {
      const type = xhr.getResponseHeader("content-type") || "";
      if (xhr.status === 200 && type.startsWith("application/json")) {
        const got = JSON.parse(xhr.responseText);
        show(got);
        const doubts = (got.doubts || []).filter((d) => info.pad || d.player === player).length;
        photoEvent({ player, stage: "done", marked: got.photo.marked, doubts });
        body.dataset.photoShownAt = String(Date.now()); // (bench/serve.py)
      } else if (xhr.status === 403 && /token/.test(xhr.responseText)) {
        location.reload();
      } else {
        photoStatus(player, xhr.responseText.trim() || xhr.statusText, null, true);
      }
    });
    xhr.addEventListener("error", () => photoStatus(player, words.photo_unreachable, null, true));
    photoStatus(player, words.stage_sending.replace("{pct}", 0), 0);
    body.dataset.photoSentAt = String(Date.now()); // (bench/serve.py)
    xhr.send(file);
  }

  document.querySelectorAll("input[data-photo]").forEach((input) =>
    input.addEventListener("change", () => {
      const file = input.files && input.files[0];
      input.value = "";
      if (file) upload(Number(input.dataset.photo), file);
    }),
  );

  // ------------------------------------------------------------------ the screen kept awake
  let lock = null;

  async function keepAwake() {
    const note = document.querySelector(".awake");
    if (!note || document.visibilityState !== "visible" || lock) return;
    if (!("wakeLock" in navigator)) {
      // the Wake Lock API exists in secure contexts only: https, or this computer
      note.textContent = window.isSecureContext ? words.awake_none : words.awake_insecure;
      note.hidden = false;
      return;
    }
    try {
      lock = await navigator.wakeLock.request("screen");
      lock.addEventListener("release", () => {
        lock = null;
      });
    } catch (err) {
      lock = null; // refused (the page hidden, a battery saver): asked again when it shows
    }
  }

  document.addEventListener("visibilitychange", keepAwake);

  // ------------------------------------------------------------------ forms that ask first
  document.querySelectorAll("form[data-confirm]").forEach((form) =>
    form.addEventListener("submit", (ev) => {
      if (!window.confirm(form.dataset.confirm)) ev.preventDefault();
    }),
  );

  // ------------------------------------------------------------------ who is this device, sections
  const phone = window.matchMedia("(max-width: 700px)");
  let me = Number(new URLSearchParams(location.search).get("player") || localStorage.getItem("sheetgen-me-" + gid) || 0);
  let section = -1;

  function sectionsOf(sheet) {
    // the frames of the sheet that hold a box to mark, then, for a page with boxes in no
    // frame, the whole page
    const out = [];
    const placed = new Set();
    const part = (page, x, y, w, h, title, only) => {
      const svg = sheet.querySelector(`svg[data-page="${CSS.escape(page)}"]`);
      if (!svg) return;
      const inside = [...svg.querySelectorAll(only || ".box")].filter((b) => {
        const [bx, by, bw, bh] = rect(b);
        return bx >= x - 0.01 && by >= y - 0.01 && bx + bw <= x + w + 0.01 && by + bh <= y + h + 0.01;
      });
      if (!inside.length || inside.every((b) => placed.has(b))) return;
      inside.forEach((b) => placed.add(b));
      out.push({ page, x, y, w, h, title, smallest: Math.min(...inside.map((b) => Math.min(...rect(b).slice(2)))) });
    };
    for (const [page, , title, x, y, w, h] of info.sections || []) part(page, x, y, w, h, title);
    const markable = ".box:not([data-mode=name]):not([data-mode=computed])"; // the name box is the app's
    for (const [page, title, w, h] of info.pages || []) part(page, 0, 0, w, h, title, markable);
    return out;
  }

  function layoutSheets() {
    const sheets = [...document.querySelectorAll(".sheet")];
    const small = phone.matches;
    body.classList.toggle("phone", small);
    document.querySelectorAll(".who").forEach((b) => b.setAttribute("aria-pressed", String(Number(b.dataset.who) === me)));
    for (const sheet of sheets) {
      // a phone shows one player's sheet: this device's player, else the first
      sheet.hidden = small && !info.pad && Number(sheet.dataset.sheet) !== (me || 1);
    }
    const nav = document.querySelector("nav.sections");
    if (!nav) return;
    while (nav.firstChild) nav.removeChild(nav.firstChild);
    const shown = sheets.find((s) => !s.hidden) || sheets[0];
    for (const svg of document.querySelectorAll("svg.page")) {
      if (!svg.dataset.full) svg.dataset.full = svg.getAttribute("viewBox");
      svg.setAttribute("viewBox", svg.dataset.full);
      svg.style.width = "";
      svg.style.height = "";
      svg.style.display = "";
    }
    if (!small || !shown) return;
    const parts = sectionsOf(shown);
    if (!parts.length) return;
    if (section < 0 || section >= parts.length) section = 0;
    parts.forEach((p, i) => {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = p.title || String(i + 1);
      b.setAttribute("aria-pressed", String(i === section));
      b.addEventListener("click", () => {
        section = i;
        layoutSheets();
      });
      nav.appendChild(b);
    });
    const p = parts[section];
    const width = shown.querySelector(".pages").clientWidth || window.innerWidth;
    // at least 44 CSS px for the smallest box of the section: wider than the screen when it must
    const scale = Math.max(width / p.w, 46 / p.smallest); // 44 CSS px and a margin for rounding
    for (const svg of shown.querySelectorAll("svg.page")) {
      if (svg.dataset.page !== p.page) {
        svg.style.display = "none";
        continue;
      }
      svg.setAttribute("viewBox", `${p.x} ${p.y} ${p.w} ${p.h}`);
      svg.style.width = `${p.w * scale}px`;
      svg.style.height = `${p.h * scale}px`;
    }
  }

  function reveal(el) {
    // a box in doubt shown on the sheet: on a phone, its player's sheet and the part that holds it
    if (phone.matches) {
      if (!info.pad) me = Number(el.dataset.player);
      const sheet = document.querySelector(`.sheet[data-sheet="${info.pad ? 0 : me}"]`);
      const [x, y, w, h] = rect(el);
      const page = el.ownerSVGElement.dataset.page;
      const inside = (p) => p.page === page && x >= p.x - 0.01 && y >= p.y - 0.01 && x + w <= p.x + p.w + 0.01 && y + h <= p.y + p.h + 0.01;
      const k = sectionsOf(sheet).findIndex(inside);
      if (k >= 0) section = k;
      layoutSheets();
    }
    el.scrollIntoView({ block: "center" });
    el.focus();
  }

  document.querySelectorAll(".who").forEach((b) =>
    b.addEventListener("click", () => {
      me = Number(b.dataset.who);
      localStorage.setItem("sheetgen-me-" + gid, String(me));
      section = 0;
      layoutSheets();
    }),
  );
  if (body.classList.contains("game")) {
    phone.addEventListener("change", layoutSheets);
    window.addEventListener("resize", () => {
      if (phone.matches) layoutSheets();
    });
  }

  // ------------------------------------------------------------------ start
  if (state) {
    show(state);
    if (body.classList.contains("game")) layoutSheets();
  }
  if (gid && state) {
    const events = new EventSource(`/game/${gid}/events`);
    events.addEventListener("state", (ev) => show(JSON.parse(ev.data)));
    events.addEventListener("photo", (ev) => photoEvent(JSON.parse(ev.data)));
    keepAwake();
  }
  body.dataset.ready = "true";
})();
