"use strict";
const $ = (id) => document.getElementById(id);
const ui = { busy: 0, token: sessionStorage.getItem("veil-token") || "" };

// ---- status, errors, requests -------------------------------------------
// Each tab its own status line: a render finishing in the Video tab does not
// overwrite what the Faces tab last said, and switching tabs shows that tab's.
const tabStatus = { faces: "Open a photo to begin.", subject: "Open a photo to lift its subject.", video: "Pick a video.", live: "Pick a live source." };
function status(text, tab) {
  const own = tab || activeTab() || "faces";
  tabStatus[own] = text;
  if (own === (activeTab() || "faces")) showStatus(text);
}
// One line of fixed height (editor.css): a long one is cut with an ellipsis
// and read whole on hover, so the toolbar and the photo never move.
function showStatus(text) { const line = $("status-text"); line.textContent = text; line.title = text; }
function showError(message) { const e = $("error"); e.textContent = message; e.classList.add("shown"); status(message.split(":")[0] + ": failed (see above)."); }
function clearError() { $("error").classList.remove("shown"); }
function busy(delta) { ui.busy += delta; document.body.dataset.busy = ui.busy > 0 ? "1" : "0"; }

function post(path, form) { return request(path, { method: "POST", body: form }); }
async function request(path, init) {
  busy(+1);
  try {
    const headers = ui.token ? { Authorization: "Bearer " + ui.token } : {};
    const response = await fetch(path, Object.assign({ headers }, init || {}));
    if (!response.ok) {
      let message = response.status + " " + response.statusText;
      try { message = (await response.json()).error || message; } catch (_) {}
      if (response.status === 401) { $("token-row").classList.add("shown"); $("token").focus(); message = "This server needs its token: " + message; }
      throw new Error(message);
    }
    return response;
  } catch (error) {
    throw new Error(error.message === "Failed to fetch" ? "The server cannot be reached." : error.message);
  } finally { busy(-1); }
}
$("token-save").onclick = () => { ui.token = $("token").value.trim(); sessionStorage.setItem("veil-token", ui.token); $("token-row").classList.remove("shown"); clearError(); status("Token set; try again."); };

function decodeState(header) {
  const bytes = Uint8Array.from(atob(header), (c) => c.charCodeAt(0));
  return JSON.parse(new TextDecoder().decode(bytes));
}
// A large state does not travel in the header: it is fetched from the URL named.
async function answeredState(response) {
  const inline = response.headers.get("X-Veil-State");
  if (inline) return decodeState(inline);
  const headers = ui.token ? { Authorization: "Bearer " + ui.token } : {};
  const saved = await fetch(response.headers.get("X-Veil-State-URL"), { headers });
  if (!saved.ok) throw new Error("the editing state could not be fetched (" + saved.status + ")");
  return saved.json();
}
function loadImage(blob) {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error("The browser cannot show this image."));
    img.src = URL.createObjectURL(blob);
  });
}
function download(blob, name) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob); a.download = name;
  document.body.appendChild(a); a.click(); a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}
function baseName(name) { return name.replace(/\.[^.]*$/, ""); }

// ---- tabs ------------------------------------------------------------------
const tabs = ["faces", "subject", "video", "live"];
function selectTab(name) {
  if (name !== "live") stopLive();
  for (const tab of tabs) {
    $("tab-" + tab).setAttribute("aria-selected", String(tab === name));
    $(tab).classList.toggle("active", tab === name);
  }
  showStatus(tabStatus[name] || "");
}
for (const tab of tabs) $("tab-" + tab).onclick = () => selectTab(tab);
const activeTab = () => tabs.find((tab) => $(tab).classList.contains("active"));

// ---- canvas coordinates ----------------------------------------------------
function imagePoint(canvas, event) {
  const r = canvas.getBoundingClientRect();
  return { x: (event.clientX - r.left) / r.width * canvas.width, y: (event.clientY - r.top) / r.height * canvas.height };
}

// ---- Faces tab -------------------------------------------------------------
const faces = { photos: [], current: -1, tool: "select", drag: null, sending: false, again: false };
const fcanvas = $("faces-canvas"), fctx = fcanvas.getContext("2d");
const photo = () => faces.photos[faces.current];

function effectiveRegions(state) {
  if (state.regions.status === "confirmed") return state.regions.regions.slice();
  if (state.faces.status !== "recognized") return [];
  return state.faces.faces.map((f, i) => ({ box: f.box, face: i }));
}
// Text regions (cover=faces,text): quadrilaterals, normalized, upper-left origin.
const textItems = (state) => (state && state.texts ? state.texts.items : []);
const textMatch = () => $("text-match").value.trim();
function textSummary(state) {
  const items = textItems(state); if (!state || !state.texts) return "";
  return ", " + items.length + " text region" + (items.length === 1 ? "" : "s") + " (" + items.filter((t) => t.covered).length + " covered)";
}
// People (cover=people): each a silhouette of spans "y h x w;..." on its own grid.
const peopleItems = (state) => (state && state.people ? state.people.items : []);
const spansOf = (person) => person.spans.split(";").filter(Boolean).map((s) => s.split(" ").map(Number));
function peopleSummary(state) {
  const items = peopleItems(state); if (!state || !state.people) return "";
  return ", " + items.length + (items.length === 1 ? " person" : " people") + " (" + items.filter((t) => t.covered).length + " covered)";
}
// The person whose silhouette holds (x, y), normalized; its area in grid pixels.
function personAt(state, x, y) {
  const hits = [];
  peopleItems(state).forEach((person, i) => {
    const [gw, gh] = person.grid, gx = x * gw, gy = y * gh;
    const spans = spansOf(person);
    if (spans.some(([sy, sh, sx, sw]) => gy >= sy && gy < sy + sh && gx >= sx && gx < sx + sw))
      hits.push({ person: i, area: spans.reduce((a, s) => a + s[1] * s[3], 0) / (gw * gh) });
  });
  return hits;
}
function inPolygon(x, y, corners) {
  let inside = false;
  for (let i = 0, j = corners.length - 1; i < corners.length; j = i++) {
    const [xi, yi] = corners[i], [xj, yj] = corners[j];
    if ((yi > y) !== (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}
function polygonArea(corners) {
  let a = 0;
  for (let i = 0, j = corners.length - 1; i < corners.length; j = i++) a += corners[j][0] * corners[i][1] - corners[i][0] * corners[j][1];
  return Math.abs(a) / 2;
}
// `confirming`: the Confirm button. The state's "confirmed" list only says the
// list is explicit (any added box or toggle makes it so); the photo is said
// confirmed only when the user confirmed it, and until they change what is covered.
function edit(change, confirming) {
  const p = photo(); if (!p || !p.state) return;
  const covers = (s) => JSON.stringify([s.regions, s.strokes, s.texts, s.people]);
  const before = covers(p.state);
  p.history.push(JSON.stringify({ state: p.state, confirmed: !!p.confirmed }));
  change(p.state);
  p.confirmed = !!confirming || (!!p.confirmed && covers(p.state) === before);
  $("undo").disabled = false;
  render();
}
function styleSpelling() {
  const s = $("style").value, k = Number($("strength").value);
  if (s === "solid") return "solid=" + $("solid-color").value.toUpperCase();
  // The picture travels as a form part; the server puts its own name in the state.
  if (s === "image") return "image";
  return k === 1 ? s : s + "=" + k;
}
function syncControls(state) {
  const [name, value] = state.style.split("=");
  if (["pixelate", "blur", "solid", "image"].includes(name)) $("style").value = name;
  if (name === "solid" && /^#[0-9a-fA-F]{6}/.test(value || "")) $("solid-color").value = value.slice(0, 7).toLowerCase();
  $("strength").value = name === "solid" || name === "image" || !value ? 1 : value;
  $("shape").value = state.shape;
  syncStyleControls();
}
// The text choice of the photo shown (on browsing and undoing; not on each
// answer, which may predate a choice made since the request went).
function syncText(state) {
  $("cover-text").checked = !!state.texts;
  $("cover-people").checked = !!state.people;
  if (state.texts) $("text-match").value = state.texts.match || "";
  syncStyleControls();
}
function syncStyleControls() {
  const s = $("style").value;
  $("solid-label").hidden = s !== "solid";
  $("picture-open").hidden = s !== "image";
  $("text-match-label").hidden = !$("cover-text").checked;
}

// Photos, optionally with editing states downloaded earlier (NAME-veil.veil.json
// or NAME.veil.json): a state for the same photo is sent with it.
async function openPhotos(files) {
  clearError();
  const states = {};
  for (const file of files.filter((f) => f.name.endsWith(".json"))) {
    try { states[file.name.replace(/(-veil)?\.veil\.json$|\.json$/, "")] = JSON.parse(await file.text()); }
    catch (_) { showError(file.name + " is not an editing state."); }
  }
  for (const file of files.filter((f) => !f.name.endsWith(".json"))) {
    const p = { name: file.name, file, state: states[baseName(file.name)] || null, result: null, image: null, original: null, history: [] };
    faces.photos.push(p);
    faces.current = faces.photos.length - 1;
    listPhotos();
    status("Finding faces in " + file.name + "…", "faces");
    try {
      p.original = await loadImage(file);
      await send(p);
    } catch (error) {
      // A file that is not a photo does not stay as a tab: said once, then gone.
      faces.photos.splice(faces.photos.indexOf(p), 1);
      faces.current = Math.min(faces.current, faces.photos.length - 1);
      listPhotos(); draw(); enableFaces();
      showError(file.name + " was not opened: " + error.message);
      document.body.dataset.refused = String(Number(document.body.dataset.refused || 0) + 1);
    }
  }
}

// Sends the photo with its current state; keeps the latest answer only.
async function send(p) {
  const form = new FormData();
  form.append("image", p.file, p.name);
  if (p.picture) { form.append("style", "image"); form.append("picture", p.picture, p.picture.name); }
  // As the CLI's --cover faces,text and --text-match: the server finds text
  // once for each match and keeps it in the state, with each region's covered flag.
  const cover = ["faces"].concat($("cover-text").checked ? ["text"] : [], $("cover-people").checked ? ["people"] : []);
  if (cover.length > 1) form.append("cover", cover.join(","));
  if ($("cover-text").checked && textMatch()) form.append("text-match", textMatch());
  // The server keeps this photo's state for this editor alone, under the handle it gave.
  form.append("keep", "1");
  if (p.handle) form.append("handle", p.handle);
  if (p.state) {
    // A picture style names a file on the server: the picture is sent again instead.
    const sent = Object.assign({}, p.state, p.state.style.startsWith("image") ? { style: "pixelate" } : {});
    form.append("state", new Blob([JSON.stringify(sent)], { type: "application/json" }));
  }
  const response = await post("/v1/blur", form);
  const blob = await response.blob();
  const state = await answeredState(response);
  const detector = response.headers.get("X-Veil-Detector");
  p.handle = response.headers.get("X-Veil-State-Handle") || p.handle;
  p.result = blob;
  p.image = await loadImage(blob);
  const first = !p.state, opened = !!p.state && !p.sent;
  p.sent = true;
  if (first) p.state = state; else { p.state.faces = state.faces; p.state.source = state.source; p.state.exported = state.exported; }
  // Text found by the server (none kept here yet, or found for another match)
  // is taken while Cover text is on; regions toggled here since the request
  // went are kept, and text turned off since stays off.
  if (!first && $("cover-text").checked && state.texts && (!p.state.texts || (p.state.texts.match || null) !== (state.texts.match || null))) p.state.texts = state.texts;
  // People found by the server are taken while Cover people is on; their covered flags, once here, are the user's.
  if (!first && $("cover-people").checked && state.people && !p.state.people) p.state.people = state.people;
  // A photo whose saved state holds text or people shows those choices on.
  if (p === photo() && ((p.state.texts && !$("cover-text").checked) || (p.state.people && !$("cover-people").checked))) syncText(p.state);
  // The server names the picture it keeps (the state downloaded then renders the same).
  if (state.style.startsWith("image=")) p.state.style = state.style;
  const n = state.faces.status === "recognized" ? state.faces.faces.length : 0;
  p.faces = n;
  listPhotos();
  if (p === photo()) {
    draw();
    syncControls(p.state);
    // What the server did on this photo's first answer: the detector's findings
    // for the same bytes reused (no one's edits), or the state opened with it.
    const note = detector !== "reused" || !(first || opened) ? "" : opened ? " (from the state opened with it, not detected again)" : " (found before in the same photo, not detected again)";
    status(p.name + ": " + facesSummary(p, note) + ".", "faces");
  }
  document.body.dataset.detector = detector || "";
  document.body.dataset.texts = String(textItems(p.state).length);
  document.body.dataset.textsCovered = String(textItems(p.state).filter((t) => t.covered).length);
  document.body.dataset.people = String(peopleItems(p.state).length);
  document.body.dataset.peopleCovered = String(peopleItems(p.state).filter((t) => t.covered).length);
  document.body.dataset.faces = String(n);
  document.body.dataset.covered = String(effectiveRegions(p.state).length);
  document.body.dataset.confirmed = p.confirmed ? "1" : "0";
  document.body.dataset.rendered = String(Number(document.body.dataset.rendered || 0) + 1);
  enableFaces();
}
async function render() {
  const p = photo(); if (!p) return;
  draw();
  if (faces.sending) { faces.again = true; return; }
  faces.sending = true;
  try {
    do { faces.again = false; status("Rendering " + p.name + "…", "faces"); await send(p); } while (faces.again);
    clearError();
  } catch (error) { showError(error.message); }
  finally { faces.sending = false; }
}

function draw() {
  const p = photo();
  const img = p && (p.image || p.original);
  $("faces-empty").hidden = !!img; fcanvas.hidden = !img;
  if (!img) return;
  if (fcanvas.width !== img.naturalWidth || fcanvas.height !== img.naturalHeight) { fcanvas.width = img.naturalWidth; fcanvas.height = img.naturalHeight; }
  fctx.drawImage(img, 0, 0);
  if (!p.state || !$("outlines").checked) return;
  const W = fcanvas.width, H = fcanvas.height, line = Math.max(2, Math.round(Math.max(W, H) / 400));
  const covered = new Set(effectiveRegions(p.state).filter((r) => r.face !== undefined && r.face !== null).map((r) => r.face));
  fctx.lineWidth = line;
  if (p.state.faces.status === "recognized") p.state.faces.faces.forEach((f, i) => {
    fctx.setLineDash(covered.has(i) ? [] : [line * 3, line * 2]);
    fctx.strokeStyle = covered.has(i) ? "rgba(91,209,139,.9)" : "rgba(255,196,0,.95)";
    fctx.strokeRect(f.box.x * W, f.box.y * H, f.box.width * W, f.box.height * H);
  });
  fctx.setLineDash([]);
  fctx.strokeStyle = "rgba(79,157,255,.9)";
  for (const r of effectiveRegions(p.state)) if (r.face === undefined || r.face === null) fctx.strokeRect(r.box.x * W, r.box.y * H, r.box.width * W, r.box.height * H);
  drawTexts(p.state, W, H, line);
  drawPeople(p.state, W, H, line);
  const d = faces.drag;
  if (d && d.kind === "box") { fctx.strokeStyle = "#fff"; fctx.setLineDash([line * 2, line * 2]); fctx.strokeRect(d.x0, d.y0, d.x1 - d.x0, d.y1 - d.y0); fctx.setLineDash([]); }
  if (d && d.kind === "pen" && d.points.length) {
    fctx.strokeStyle = "rgba(255,255,255,.6)"; fctx.lineCap = "round"; fctx.lineJoin = "round"; fctx.lineWidth = penWidth();
    fctx.beginPath(); fctx.moveTo(d.points[0].x, d.points[0].y); for (const q of d.points) fctx.lineTo(q.x, q.y); fctx.stroke();
  }
}
// Text regions as their quadrilaterals in violet (faces are rectangles in
// green), dashed when uncovered, each labelled tN as --drop tN names it.
function drawTexts(state, W, H, line) {
  fctx.font = "bold " + Math.max(13, line * 6) + "px system-ui, sans-serif";
  textItems(state).forEach((t, i) => {
    if (t.corners.length < 3) return;
    const colour = "rgba(200,120,255,.95)";
    fctx.strokeStyle = colour; fctx.fillStyle = colour;
    fctx.setLineDash(t.covered ? [] : [line * 3, line * 2]);
    fctx.beginPath();
    t.corners.forEach(([x, y], k) => (k ? fctx.lineTo(x * W, y * H) : fctx.moveTo(x * W, y * H)));
    fctx.closePath(); fctx.stroke();
    const top = Math.min(...t.corners.map((c) => c[1])) * H, left = Math.min(...t.corners.map((c) => c[0])) * W;
    fctx.fillText("t" + i + (t.text ? " " + t.text : ""), left, Math.max(10, top - line));
  });
  fctx.setLineDash([]);
}
// People as the outline of their silhouette's extent in orange, dashed when
// uncovered, each labelled pN as --drop pN names it.
function drawPeople(state, W, H, line) {
  fctx.font = "bold " + Math.max(13, line * 6) + "px system-ui, sans-serif";
  peopleItems(state).forEach((person, i) => {
    const spans = spansOf(person); if (!spans.length) return;
    const [gw, gh] = person.grid;
    const x0 = Math.min(...spans.map((s) => s[2])) / gw * W, y0 = Math.min(...spans.map((s) => s[0])) / gh * H;
    const x1 = Math.max(...spans.map((s) => s[2] + s[3])) / gw * W, y1 = Math.max(...spans.map((s) => s[0] + s[1])) / gh * H;
    const colour = "rgba(255,140,0,.95)";
    fctx.strokeStyle = colour; fctx.fillStyle = colour;
    fctx.setLineDash(person.covered ? [] : [line * 3, line * 2]);
    fctx.strokeRect(x0, y0, x1 - x0, y1 - y0);
    fctx.fillText("p" + i, x0 + line, y0 + Math.max(13, line * 6));
  });
  fctx.setLineDash([]);
}
function penWidth() { return Number($("pen-width").value) * Math.max(fcanvas.width, fcanvas.height) / 1000; }

function listPhotos() {
  const list = $("photos"); list.textContent = "";
  faces.photos.forEach((p, i) => {
    const b = document.createElement("button");
    // As each photo comes back: how many faces it has.
    b.textContent = p.name;
    const count = document.createElement("span");
    count.className = "count";
    count.textContent = p.faces === undefined ? "…" : p.faces === 0 ? "no faces" : p.faces + (p.faces === 1 ? " face" : " faces");
    b.appendChild(count);
    if (p.faces !== undefined) b.dataset.faces = String(p.faces);
    b.title = p.faces === undefined ? "finding faces…" : count.textContent;
    b.setAttribute("aria-current", String(i === faces.current));
    b.onclick = () => showPhoto(i);
    list.appendChild(b);
  });
}
function showPhoto(i) {
  if (i < 0 || i >= faces.photos.length) return;
  // An error was about the photo shown before: browsing on clears it.
  if (i !== faces.current) clearError();
  faces.current = i; listPhotos(); draw();
  const p = photo(); if (p.state) { syncControls(p.state); syncText(p.state); }
  status(p.name + ": " + (p.faces === undefined ? "finding faces…" : facesSummary(p, "") + "."), "faces");
  enableFaces();
}
// "N faces, M covered, confirmed, ...": confirmed only once the user pressed Confirm (`edit`).
function facesSummary(p, note) {
  return p.faces + (p.faces === 1 ? " face" : " faces") + note + ", " + effectiveRegions(p.state).length + " covered" + (p.confirmed ? ", confirmed" : "") + textSummary(p.state) + peopleSummary(p.state);
}
function enableFaces() {
  const p = photo(), ready = !!(p && p.state);
  for (const id of ["confirm", "download-result", "download-state"]) $(id).disabled = !ready;
  $("undo").disabled = !(p && p.history.length);
}
function setTool(tool) {
  faces.tool = tool;
  for (const t of ["select", "box", "pen"]) $("tool-" + t).setAttribute("aria-pressed", String(t === tool));
}
$("tool-select").onclick = () => setTool("select");
$("tool-box").onclick = () => setTool("box");
$("tool-pen").onclick = () => setTool("pen");
$("faces-file").onchange = (e) => { openPhotos([...e.target.files]); e.target.value = ""; };

function toggleAt(pt) {
  const p = photo(); if (!p || !p.state) return;
  const W = fcanvas.width, H = fcanvas.height, x = pt.x / W, y = pt.y / H;
  const inside = (b) => x >= b.x && x <= b.x + b.width && y >= b.y && y <= b.y + b.height;
  const regions = effectiveRegions(p.state);
  // A manual box under the point is removed; else a detected face flips.
  const manual = regions.findIndex((r) => (r.face === undefined || r.face === null) && inside(r.box));
  if (manual >= 0) { edit((s) => { regions.splice(manual, 1); s.regions = { status: "confirmed", regions }; }); return; }
  const list = p.state.faces.status === "recognized" ? p.state.faces.faces : [];
  // The smallest face or text region under the point flips (a plate on a face's box, a badge on a shirt).
  const hits = [];
  list.forEach((f, i) => { if (inside(f.box)) hits.push({ face: i, area: f.box.width * f.box.height }); });
  textItems(p.state).forEach((t, i) => { if (inPolygon(x, y, t.corners)) hits.push({ text: i, area: polygonArea(t.corners) }); });
  hits.push(...personAt(p.state, x, y));
  hits.sort((a, b) => a.area - b.area);
  if (!hits.length) { status("No face, text or person there: drag a box (B) or use the pen (P) to cover more.", "faces"); return; }
  if (hits[0].person !== undefined) {
    const i = hits[0].person, covered = !peopleItems(p.state)[i].covered;
    edit((s) => { s.people.items[i].covered = covered; });
    status("Person p" + i + (covered ? " covered" : " uncovered") + ".", "faces");
    return;
  }
  if (hits[0].text !== undefined) {
    const i = hits[0].text, covered = !textItems(p.state)[i].covered;
    edit((s) => { s.texts.items[i].covered = covered; });
    status("Text t" + i + (covered ? " covered" : " uncovered") + ".", "faces");
    return;
  }
  const hit = hits[0].face;
  edit((s) => {
    const at = regions.findIndex((r) => r.face === hit);
    if (at >= 0) regions.splice(at, 1); else regions.push({ box: list[hit].box, face: hit });
    s.regions = { status: "confirmed", regions };
  });
}
fcanvas.addEventListener("pointerdown", (e) => {
  if (!photo() || !photo().state) return;
  fcanvas.setPointerCapture(e.pointerId);
  const pt = imagePoint(fcanvas, e);
  if (faces.tool === "select") { toggleAt(pt); return; }
  faces.drag = faces.tool === "box" ? { kind: "box", x0: pt.x, y0: pt.y, x1: pt.x, y1: pt.y } : { kind: "pen", points: [pt] };
});
fcanvas.addEventListener("pointermove", (e) => {
  const d = faces.drag; if (!d) return;
  const pt = imagePoint(fcanvas, e);
  if (d.kind === "box") { d.x1 = pt.x; d.y1 = pt.y; }
  else {
    // Keep points a quarter pen width apart: the state stays small.
    const last = d.points[d.points.length - 1];
    if (Math.hypot(pt.x - last.x, pt.y - last.y) >= penWidth() / 4) d.points.push(pt);
  }
  draw();
});
fcanvas.addEventListener("pointerup", () => {
  const d = faces.drag; faces.drag = null; if (!d) return;
  const W = fcanvas.width, H = fcanvas.height;
  if (d.kind === "box") {
    const x = Math.min(d.x0, d.x1), y = Math.min(d.y0, d.y1), w = Math.abs(d.x1 - d.x0), h = Math.abs(d.y1 - d.y0);
    if (w < 4 || h < 4) { draw(); return; }
    edit((s) => { const regions = effectiveRegions(s); regions.push({ box: { x: x / W, y: y / H, width: w / W, height: h / H } }); s.regions = { status: "confirmed", regions }; });
  } else {
    const width = penWidth() / Math.max(W, H);
    edit((s) => s.strokes.push({ points: d.points.map((q) => [q.x / W, q.y / H]), width }));
  }
});
// The picture style: each photo carries its picture to the server.
function changeStyle() {
  syncStyleControls();
  const p = photo(); if (!p) return;
  if ($("style").value === "image") {
    const picture = $("picture-file").files[0];
    if (!picture) { status("Choose the picture to put over each face.", "faces"); return; }
    p.picture = picture;
  } else p.picture = null;
  edit((s) => { s.style = styleSpelling(); s.shape = $("shape").value; });
}
for (const id of ["style", "strength", "shape", "solid-color", "picture-file"]) $(id).onchange = changeStyle;
// Cover text on: the server finds it (once per match); off: the regions leave the state.
function changeText() {
  syncStyleControls();
  const p = photo(); if (!p || !p.state) return;
  const on = $("cover-text").checked, match = on ? textMatch() || null : null;
  if (!on && !p.state.texts) return;
  if (on && p.state.texts && (p.state.texts.match || null) === match) return;
  edit((s) => { delete s.texts; });
}
$("cover-text").onchange = changeText;
// Cover people on: the server finds them (once); off: they leave the state.
$("cover-people").onchange = () => {
  const p = photo(); if (!p || !p.state) return;
  const on = $("cover-people").checked;
  if (on === !!p.state.people) return;
  edit((s) => { delete s.people; });
};
$("text-match").onchange = changeText;
$("outlines").onchange = () => { draw(); document.body.dataset.outlines = $("outlines").checked ? "1" : "0"; };
$("undo").onclick = () => { const p = photo(); if (!p || !p.history.length) return; const last = JSON.parse(p.history.pop()); p.state = last.state; p.confirmed = last.confirmed; syncControls(p.state); syncText(p.state); enableFaces(); render(); };
$("confirm").onclick = () => edit((s) => { s.regions = { status: "confirmed", regions: effectiveRegions(s) }; }, true);
$("download-result").onclick = () => { const p = photo(); if (p && p.result) download(p.result, baseName(p.name) + "-veil." + (p.result.type.split("/")[1] || "png").replace("jpeg", "jpg")); };
$("download-state").onclick = () => { const p = photo(); if (p && p.state) download(new Blob([JSON.stringify(p.state, null, 2)], { type: "application/json" }), baseName(p.name) + "-veil.veil.json"); };

// ---- Subject tab -----------------------------------------------------------
const subject = { file: null, original: null, result: null, tap: null, background: null, crop: null };
const scanvas = $("subject-canvas"), sctx = scanvas.getContext("2d");
function showSubject(img) {
  $("subject-empty").hidden = true; scanvas.hidden = false;
  scanvas.width = img.naturalWidth; scanvas.height = img.naturalHeight;
  sctx.clearRect(0, 0, scanvas.width, scanvas.height);
  sctx.drawImage(img, 0, 0);
}
function effectSpelling() {
  const e = $("effect").value, v = $("amount").value;
  if (e === "color") return "color=" + $("color").value;
  if (e === "highlight") return "highlight=" + (-v / 8).toFixed(2);
  if (e === "bokeh") return "bokeh=" + v;
  return e;
}
function syncEffect() {
  const e = $("effect").value;
  $("background-open").hidden = e !== "replace";
  $("color-label").hidden = e !== "color";
  $("amount-label").hidden = !(e === "highlight" || e === "bokeh");
  $("amount-name").textContent = e === "bokeh" ? "Blur" : "Darken";
}
async function lift(tap) {
  if (!subject.file) return;
  if ($("effect").value === "replace" && !subject.background) { status("Choose a background picture first.", "subject"); $("background-file").click(); return; }
  subject.tap = tap;
  const q = new URLSearchParams({ effect: effectSpelling() });
  // The API takes a tap as Vision's UIs send it: normalized, origin top-left.
  if (tap) q.set("tap", (tap.x / subject.original.naturalWidth).toFixed(4) + "," + (tap.y / subject.original.naturalHeight).toFixed(4));
  if ($("crop").checked) q.set("crop", "1");
  document.body.dataset.tap = q.get("tap") || "";
  const form = new FormData();
  form.append("image", subject.file, subject.file.name);
  if (subject.background) form.append("background", subject.background, subject.background.name);
  status("Lifting the subject…", "subject");
  try {
    const response = await post("/v1/lift?" + q, form);
    subject.result = await response.blob();
    // A cropped answer shows part of the photo: where, so the next tap maps back through it.
    const crop = (response.headers.get("X-Veil-Crop") || "").split(",").map(Number);
    subject.crop = crop.length === 4 && crop.every(isFinite) ? { x: crop[0], y: crop[1], width: crop[2], height: crop[3] } : null;
    showSubject(await loadImage(subject.result));
    const n = response.headers.get("X-Veil-Instances");
    status(n === "0" ? "No subject found." : "Lifted subject " + response.headers.get("X-Veil-Chosen") + " of " + n + ".", "subject");
    $("subject-download").disabled = false;
    document.body.dataset.lifted = String(Number(document.body.dataset.lifted || 0) + 1);
    clearError();
  } catch (error) { showError(error.message); }
}
$("subject-file").onchange = async (e) => {
  const file = e.target.files[0]; e.target.value = ""; if (!file) return;
  clearError();
  try {
    subject.file = file; subject.original = await loadImage(file); subject.result = null; subject.tap = null; subject.crop = null;
    showSubject(subject.original);
    $("subject-all").disabled = false;
    status("Click a subject to lift it (the background: every subject).", "subject");
  } catch (error) { showError(error.message); }
};
$("background-file").onchange = (e) => { subject.background = e.target.files[0] || null; if (subject.file) lift(subject.tap); };
// A tap in photo pixels: on a cropped result, mapped back through the crop.
function photoPoint(e) {
  const pt = imagePoint(scanvas, e), c = subject.result && subject.crop;
  return c ? { x: c.x + pt.x * c.width / scanvas.width, y: c.y + pt.y * c.height / scanvas.height } : pt;
}
scanvas.addEventListener("pointerdown", (e) => { if (subject.file) lift(photoPoint(e)); });
$("subject-all").onclick = () => lift(null);
for (const id of ["effect", "color", "amount", "crop"]) $(id).onchange = () => { syncEffect(); if (subject.result) lift(subject.tap); };
$("subject-download").onclick = () => { if (subject.result) download(subject.result, baseName(subject.file.name) + "-lifted." + (subject.result.type === "image/webp" ? "webp" : "png")); };
syncEffect();

// ---- Video tab ---------------------------------------------------------------
// The server's media folder, by name. The video plays in a <video>; the
// tracks of its editing state are drawn over it on a canvas of the video's
// own pixel size, frame by frame. Edits wait here until Render sends them
// as the CLI's flags (drop-track, keep-track, uncover-person, cover-person, add, stroke); the server's state is
// then read back, so what is shown is what was rendered.
const vid = { name: "", state: null, clock: { start: 0, step: 0.04 }, frames: 0, frame: 0, tool: "toggle", drag: null,
  pending: { drop: new Set(), keep: new Set(), uncover: new Set(), cover: new Set(), add: [], strokes: [], merge: [] }, pen: null, mergeFrom: null };
const player = $("video-player"), overlay = $("video-overlay"), octx = overlay.getContext("2d"), timeline = $("video-timeline");
// The media URL carries the token as a query parameter: a <video> cannot send headers.
const mediaURL = (name, what) => "/v1/videos/" + encodeURIComponent(name) + (what ? "/" + what : "") + (ui.token ? "?token=" + encodeURIComponent(ui.token) : "");

// A <select> refilled with [value, label] pairs, keeping what was chosen.
function fillPicker(pick, entries) {
  const chosen = pick.value;
  pick.length = 1;
  for (const [value, label] of entries) { const o = document.createElement("option"); o.value = value; o.textContent = label; pick.appendChild(o); }
  pick.value = chosen;
}
async function listVideos() {
  try {
    const list = await (await request("/v1/videos")).json();
    fillPicker($("video-pick"), list.videos.map((v) => [v.name, v.name + (v.edited ? " (edited)" : v.state ? " (tracked)" : "")]));
    document.body.dataset.videos = String(list.videos.length);
  } catch (error) { showError(error.message); }
}
async function openVideo(name) {
  clearError();
  vid.name = name; vid.state = null; vid.mergeFrom = null; vid.pending = { drop: new Set(), keep: new Set(), uncover: new Set(), cover: new Set(), add: [], strokes: [], merge: [] };
  enableVideo();
  if (!name) return;
  $("video-empty").hidden = true; $("video-frame").hidden = false;
  $("video-show-result").checked = false;
  player.src = mediaURL(name);
  try {
    const response = await fetch(mediaURL(name, "state"));
    if (response.ok) { useState(await response.json()); status(name + ": " + describeTracks() + " (tracks kept from its last render, not detected again).", "video"); }
    else if (response.status === 404) { status("Finding and tracking the faces of " + name + "…", "video"); await renderVideo(); }
    else throw new Error((await response.json()).error || response.statusText);
  } catch (error) { showError(name + ": " + error.message); }
}
function useState(state) {
  vid.state = state; vid.frames = state.source.frames;
  vid.clock = state.source.clock || { start: 0, step: 1 / (state.source.framesPerSecond || 25) };
  $("video-seek").max = String(Math.max(0, vid.frames - 1));
  document.body.dataset.videoTracks = String(state.tracks.length);
  overlay.width = state.source.width; overlay.height = state.source.height;
  layoutVideo(); drawVideo(); enableVideo();
}
function describeTracks() {
  const s = vid.state, dropped = s.tracks.filter((t) => t.status === "dropped").length;
  return s.tracks.length + " track" + (s.tracks.length === 1 ? "" : "s") + ", " + dropped + " uncovered, " + s.manual.length + " added";
}
function enableVideo() {
  const ready = !!vid.state;
  for (const id of ["video-play", "video-render", "video-download", "video-download-state", "video-show-result", "video-sheet"]) $(id).disabled = !ready;
}
// The source (to review the tracks over) or the covered video as last rendered, at the same frame.
function showVideoSource() {
  const frame = vid.frame, covered = $("video-show-result").checked;
  player.src = mediaURL(vid.name, covered ? "result" : "") + (covered ? (ui.token ? "&" : "?") + "v=" + (document.body.dataset.videoRendered || 0) : "");
  player.addEventListener("loadedmetadata", () => seekFrame(frame), { once: true });
}
$("video-show-result").onchange = showVideoSource;
// The video and its overlay fitted into the stage at the video's aspect.
function layoutVideo() {
  if (!vid.state) return;
  const stage = $("video-stage"), W = vid.state.source.width, H = vid.state.source.height;
  const k = Math.min((stage.clientWidth - 24) / W, (stage.clientHeight - 24) / H, 1.5);
  const w = Math.max(1, Math.floor(W * k)), h = Math.max(1, Math.floor(H * k));
  for (const e of [player, overlay]) { e.style.width = w + "px"; e.style.height = h + "px"; }
}
window.addEventListener("resize", () => { layoutVideo(); drawTimeline(); });
// The stage also shrinks when the timeline below it grows (its lanes come with the state):
// the video is fitted again, so no part of it hides under the slider, out of a click's reach.
new ResizeObserver(() => layoutVideo()).observe($("video-stage"));

const pendingCount = () => vid.pending.drop.size + vid.pending.keep.size + vid.pending.uncover.size + vid.pending.cover.size + vid.pending.add.length + vid.pending.strokes.length + vid.pending.merge.length;
// Pen strokes on frame f, normalized ({points, width}): the state's and those not rendered yet.
function strokesAt(f) {
  const s = vid.state, on = (p) => p.first <= f && f <= p.last;
  return ((s && s.strokes) || []).filter(on).map((p) => ({ stroke: p.stroke, pending: false }))
    .concat(vid.pending.strokes.filter(on).map((p) => ({ stroke: p.stroke, pending: true })));
}
// A track's own edit comes after its person's, as the CLI applies them.
function trackStatus(t) {
  if (vid.pending.drop.has(t.id)) return "dropped";
  if (vid.pending.keep.has(t.id)) return "covered";
  if (t.person !== undefined && vid.pending.uncover.has(t.person)) return "dropped";
  if (t.person !== undefined && vid.pending.cover.has(t.person)) return "covered";
  return t.status;
}
// Boxes on frame f, normalized: [{id, box, status, kind}] (kind track, manual or pending).
function boxesAt(f) {
  const out = [], s = vid.state; if (!s) return out;
  const at = (rows) => {
    let lo = 0, hi = rows.length - 1;
    while (lo <= hi) { const mid = (lo + hi) >> 1; if (rows[mid][0] === f) return rows[mid]; if (rows[mid][0] < f) lo = mid + 1; else hi = mid - 1; }
    return null;
  };
  for (const t of s.tracks) { const r = at(t.frames); if (r) out.push({ id: t.id, box: { x: r[1], y: r[2], width: r[3], height: r[4] }, status: trackStatus(t), kind: "track", person: t.person }); }
  for (const m of s.manual) {
    const box = manualBox(m, f, at);
    if (box) out.push({ id: m.id, box, status: trackStatus(m), kind: "manual" });
  }
  vid.pending.add.forEach((a, i) => { const box = manualBox({ keys: a.keys }, f, at); if (box) out.push({ id: -1 - i, box, status: "covered", kind: "pending" }); });
  return out;
}
function manualBox(m, f, at) {
  if (m.followed && m.followed.length) { const r = at(m.followed); return r && { x: r[1], y: r[2], width: r[3], height: r[4] }; }
  const keys = m.keys.slice().sort((a, b) => a.frame - b.frame);
  if (!keys.length || f < keys[0].frame || f > keys[keys.length - 1].frame) return null;
  if (keys.length === 1) return keys[0].frame === f ? keys[0].box : null;
  for (let i = 1; i < keys.length; i++) if (f <= keys[i].frame) {
    const a = keys[i - 1], b = keys[i], t = b.frame === a.frame ? 0 : (f - a.frame) / (b.frame - a.frame);
    const mix = (u, v) => u + (v - u) * t;
    return { x: mix(a.box.x, b.box.x), y: mix(a.box.y, b.box.y), width: mix(a.box.width, b.box.width), height: mix(a.box.height, b.box.height) };
  }
  return null;
}
// Frames and the <video>'s time meet on the video's own clock (the state's
// source.clock: its presentation timestamps, as currentTime follows them),
// not at index ÷ fps: a video that starts after its audio, or whose frame
// rate varies, shows other frames at those times.
function timeOf(f) {
  const c = vid.clock;
  return c.times ? c.times[Math.max(0, Math.min(c.times.length - 1, f))] : c.start + f * c.step;
}
// The frame shown at `seconds`: the last whose time has come (the first before it starts).
function frameOf(seconds) {
  const c = vid.clock, last = Math.max(0, vid.frames - 1);
  if (!c.times) return Math.max(0, Math.min(last, Math.floor((seconds - c.start) / c.step + 0.05)));
  let lo = 0, hi = Math.min(last, c.times.length - 1);
  while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (c.times[mid] <= seconds + 1e-5) lo = mid; else hi = mid - 1; }
  return lo;
}
// A seek lands halfway through the frame, clear of both of its edges.
function seekFrame(f) {
  f = Math.max(0, Math.min(vid.frames - 1, f));
  const next = f + 1 < vid.frames ? timeOf(f + 1) : timeOf(f) + (f > 0 ? timeOf(f) - timeOf(f - 1) : 0.04);
  vid.frame = f; player.currentTime = (timeOf(f) + next) / 2; drawVideo();
}
function drawVideo() {
  const s = vid.state; if (!s) return;
  const W = overlay.width, H = overlay.height, line = Math.max(2, Math.round(Math.max(W, H) / 400));
  octx.clearRect(0, 0, W, H);
  octx.lineWidth = line; octx.font = Math.max(12, line * 6) + "px system-ui, sans-serif";
  for (const b of boxesAt(vid.frame)) {
    const colour = b.kind === "pending" ? "#fff" : b.status === "dropped" ? "rgba(255,196,0,.95)" : b.kind === "manual" ? "rgba(79,157,255,.95)" : "rgba(91,209,139,.9)";
    octx.strokeStyle = colour; octx.fillStyle = colour;
    octx.setLineDash(b.status === "dropped" || b.kind === "pending" ? [line * 3, line * 2] : []);
    octx.strokeRect(b.box.x * W, b.box.y * H, b.box.width * W, b.box.height * H);
    // A track's id, led by its proposed person (P2 · 7), as the sheet labels it.
    if (b.id >= 0) octx.fillText((b.person !== undefined ? "P" + b.person + " · " : "") + b.id, b.box.x * W, Math.max(10, b.box.y * H - line));
  }
  octx.setLineDash([]);
  octx.lineCap = "round"; octx.lineJoin = "round";
  const pens = strokesAt(vid.frame).concat(vid.pen ? [{ stroke: vid.pen, pending: true }] : []);
  for (const p of pens) {
    octx.strokeStyle = p.pending ? "rgba(255,255,255,.75)" : "rgba(79,157,255,.75)";
    octx.lineWidth = Math.max(1, p.stroke.width * Math.max(W, H));
    octx.beginPath();
    p.stroke.points.forEach(([x, y], i) => { if (i) octx.lineTo(x * W, y * H); else octx.moveTo(x * W, y * H); });
    if (p.stroke.points.length === 1) octx.lineTo(p.stroke.points[0][0] * W + 0.01, p.stroke.points[0][1] * H);
    octx.stroke();
  }
  octx.lineWidth = line;
  const d = vid.drag;
  if (d) { octx.strokeStyle = "#fff"; octx.setLineDash([line * 2, line * 2]); octx.strokeRect(d.x0, d.y0, d.x1 - d.x0, d.y1 - d.y0); octx.setLineDash([]); }
  $("video-seek").value = String(vid.frame);
  $("video-frame-label").textContent = "frame " + vid.frame + " · " + timeOf(vid.frame).toFixed(2) + " s";
  document.body.dataset.videoFrame = String(vid.frame);
  drawTimeline();
}
// The tracks packed into lanes (a track goes in the first lane free over its
// frames), each lane tall enough to click, the timeline scrolling when they are
// many; its frames line up with the slider's (the thumb's centre), so the line
// of the current frame stands over the thumb.
const LANE = 8, THUMB = 16;
function timelineRows() {
  const s = vid.state; if (!s) return [];
  const rows = s.tracks.map((t) => ({ id: t.id, first: t.frames[0][0], last: t.frames[t.frames.length - 1][0], status: trackStatus(t), manual: false }))
    .concat(s.manual.map((m) => {
      const frames = m.followed && m.followed.length ? m.followed.map((q) => q[0]) : m.keys.map((k) => k.frame);
      return { id: m.id, first: Math.min(...frames), last: Math.max(...frames), status: trackStatus(m), manual: true };
    })).filter((q) => isFinite(q.first)).sort((a, b) => a.first - b.first || a.id - b.id);
  const ends = [];
  for (const q of rows) {
    let lane = ends.findIndex((end) => end < q.first - 2);
    if (lane < 0) { lane = ends.length; ends.push(0); }
    ends[lane] = q.last; q.lane = lane;
  }
  return rows;
}
function timelineX() {
  const t = timeline.getBoundingClientRect(), seek = $("video-seek").getBoundingClientRect();
  const left = seek.left - t.left + THUMB / 2, width = Math.max(1, seek.width - THUMB), n = Math.max(1, vid.frames - 1);
  return { at: (f) => left + f / n * width, frame: (x) => Math.max(0, Math.min(n, Math.round((x - left) / width * n))) };
}
function drawTimeline() {
  const ctx = timeline.getContext("2d"), r = window.devicePixelRatio || 1;
  const rows = timelineRows(), lanes = rows.reduce((m, q) => Math.max(m, q.lane + 1), 0);
  timeline.style.height = Math.max(72, 6 + lanes * LANE) + "px";
  timeline.width = Math.round(timeline.clientWidth * r); timeline.height = Math.round(timeline.clientHeight * r);
  const H = timeline.height;
  ctx.clearRect(0, 0, timeline.width, H);
  document.body.dataset.videoLanes = String(lanes);
  if (!vid.state || !vid.frames) return;
  const x = timelineX();
  for (const q of rows) {
    ctx.fillStyle = q.status === "dropped" ? "rgba(255,196,0,.8)" : q.manual ? "rgba(79,157,255,.9)" : "rgba(91,209,139,.75)";
    ctx.fillRect(x.at(q.first) * r, (3 + q.lane * LANE) * r, Math.max(r, (x.at(q.last) - x.at(q.first)) * r), (LANE - 2) * r);
  }
  ctx.fillStyle = "#fff"; ctx.fillRect((x.at(vid.frame) - 1) * r, 0, 2 * r, H);
}
// A click goes to its frame, and names the track under it (its lane and frames).
timeline.addEventListener("pointerdown", (e) => {
  if (!vid.state) return;
  const rect = timeline.getBoundingClientRect(), f = timelineX().frame(e.clientX - rect.left);
  const lane = Math.floor((e.clientY - rect.top - 3) / LANE);
  const hit = timelineRows().find((q) => q.lane === lane && q.first <= f && f <= q.last);
  seekFrame(f);
  if (hit) status((hit.manual ? "Added box " : "Track ") + hit.id + ": frames " + hit.first + "–" + hit.last + " (" + hit.status + ")", "video");
});
$("video-seek").oninput = () => { player.pause(); seekFrame(Number($("video-seek").value)); };
// Each frame shown is drawn over (requestVideoFrameCallback gives the frame's own time).
function onVideoFrame(_, meta) { vid.frame = frameOf(meta.mediaTime); drawVideo(); player.requestVideoFrameCallback(onVideoFrame); }
if (player.requestVideoFrameCallback) player.requestVideoFrameCallback(onVideoFrame);
else player.addEventListener("timeupdate", () => { vid.frame = frameOf(player.currentTime); drawVideo(); });
player.addEventListener("seeked", () => { vid.frame = frameOf(player.currentTime); drawVideo(); });
player.addEventListener("play", () => { $("video-play").textContent = "Pause"; });
player.addEventListener("pause", () => { $("video-play").textContent = "Play"; });
player.addEventListener("error", () => showError(vid.name + ": the browser cannot play this video (" + (player.error ? player.error.message || player.error.code : "unknown") + "); its tracks can still be edited frame by frame."));
$("video-play").onclick = () => { if (player.paused) player.play().catch((error) => showError(error.message)); else player.pause(); };
$("video-pick").onchange = () => openVideo($("video-pick").value);
function setVideoTool(tool) {
  vid.tool = tool;
  for (const t of ["toggle", "person", "box", "pen", "merge"]) $("video-tool-" + t).setAttribute("aria-pressed", String(t === tool));
  vid.mergeFrom = null;
}
$("video-tool-toggle").onclick = () => setVideoTool("toggle");
$("video-tool-box").onclick = () => setVideoTool("box");
$("video-tool-pen").onclick = () => setVideoTool("pen");
$("video-tool-merge").onclick = () => setVideoTool("merge");
$("video-tool-person").onclick = () => setVideoTool("person");

// Person: a click on a face uncovers its proposed person in every shot (every
// track of theirs), or covers them again when it is uncovered, as
// `--uncover-person P` and `--cover-person P` do.
function personVideoAt(pt) {
  const x = pt.x / overlay.width, y = pt.y / overlay.height;
  const hit = boxesAt(vid.frame).filter((b) => b.kind === "track" && x >= b.box.x && x <= b.box.x + b.box.width && y >= b.box.y && y <= b.box.y + b.box.height)
    .sort((a, b) => a.box.width * a.box.height - b.box.width * b.box.height)[0];
  if (!hit) { status("No face there: the person tool uncovers or covers a face's person in every shot.", "video"); return; }
  if (hit.person === undefined) { status("Track " + hit.id + " has no person proposed (a state from before people, or without the face model): toggle it alone.", "video"); return; }
  const p = hit.person, tracks = vid.state.tracks.filter((t) => t.person === p);
  const want = hit.status === "covered" ? "dropped" : "covered";
  vid.pending.uncover.delete(p); vid.pending.cover.delete(p);
  for (const t of tracks) { vid.pending.drop.delete(t.id); vid.pending.keep.delete(t.id); }
  if (tracks.some((t) => t.status !== want)) (want === "dropped" ? vid.pending.uncover : vid.pending.cover).add(p);
  status("Person " + p + " (track" + (tracks.length === 1 ? " " : "s ") + tracks.map((t) => t.id).join(", ") + ") " + (want === "dropped" ? "uncovered" : "covered")
    + " in every shot; Render to apply.", "video");
  document.body.dataset.videoPending = String(pendingCount());
  drawVideo();
}

// Merge: a click picks a track, a click on another (on any frame) joins it
// into the first, as `--merge-tracks A,B` does: one person followed as two.
function mergeVideoAt(pt) {
  const x = pt.x / overlay.width, y = pt.y / overlay.height;
  const hit = boxesAt(vid.frame).filter((b) => b.kind === "track" && x >= b.box.x && x <= b.box.x + b.box.width && y >= b.box.y && y <= b.box.y + b.box.height)
    .sort((a, b) => a.box.width * a.box.height - b.box.width * b.box.height)[0];
  if (!hit) { status("No track there: merge joins the detector's tracks.", "video"); return; }
  if (vid.mergeFrom === null || vid.mergeFrom === hit.id) {
    vid.mergeFrom = hit.id;
    status("Track " + hit.id + " picked: click the same person's other track (on any frame) to join them.", "video");
  } else {
    vid.pending.merge.push([vid.mergeFrom, hit.id]);
    status("Track " + hit.id + " joins track " + vid.mergeFrom + "; Render to apply.", "video");
    vid.mergeFrom = null;
    document.body.dataset.videoPending = String(pendingCount());
  }
  drawVideo();
}

// A click flips the smallest box under it: a track (or added box) uncovered
// or covered again for its whole life; a box not rendered yet is removed.
function toggleVideoAt(pt) {
  const x = pt.x / overlay.width, y = pt.y / overlay.height;
  const hits = boxesAt(vid.frame).filter((b) => x >= b.box.x && x <= b.box.x + b.box.width && y >= b.box.y && y <= b.box.y + b.box.height)
    .sort((a, b) => a.box.width * a.box.height - b.box.width * b.box.height);
  if (!hits.length) { status("No track there: drag a box (B) to cover something missed.", "video"); return; }
  const hit = hits[0];
  if (hit.kind === "pending") { vid.pending.add.splice(-1 - hit.id, 1); }
  else {
    const saved = (hit.kind === "track" ? vid.state.tracks : vid.state.manual).find((t) => t.id === hit.id).status;
    const want = hit.status === "covered" ? "dropped" : "covered";
    vid.pending.drop.delete(hit.id); vid.pending.keep.delete(hit.id);
    if (want !== saved) (want === "dropped" ? vid.pending.drop : vid.pending.keep).add(hit.id);
    status("Track " + hit.id + (want === "dropped" ? " uncovered" : " covered") + " for its whole life; Render to apply.", "video");
  }
  document.body.dataset.videoPending = String(pendingCount());
  drawVideo();
}
overlay.addEventListener("pointerdown", (e) => {
  if (!vid.state) return;
  player.pause();
  overlay.setPointerCapture(e.pointerId);
  const pt = imagePoint(overlay, e);
  if (vid.tool === "toggle") { toggleVideoAt(pt); return; }
  if (vid.tool === "merge") { mergeVideoAt(pt); return; }
  if (vid.tool === "person") { personVideoAt(pt); return; }
  if (vid.tool === "pen") { vid.pen = { points: [[pt.x / overlay.width, pt.y / overlay.height]], width: 12 / Math.max(overlay.width, overlay.height) }; drawVideo(); return; }
  vid.drag = { x0: pt.x, y0: pt.y, x1: pt.x, y1: pt.y };
});
overlay.addEventListener("pointermove", (e) => {
  if (vid.pen) { const pt = imagePoint(overlay, e); vid.pen.points.push([pt.x / overlay.width, pt.y / overlay.height]); drawVideo(); return; }
  if (!vid.drag) return; const pt = imagePoint(overlay, e); vid.drag.x1 = pt.x; vid.drag.y1 = pt.y; drawVideo(); });
overlay.addEventListener("pointerup", () => {
  if (vid.pen) {
    // The stroke lasts from this frame over the next ones (the range field), within the video.
    const stroke = vid.pen, first = vid.frame, last = Math.min(vid.frames - 1, first + Math.max(1, Number($("video-pen-frames").value) || 1) - 1);
    vid.pen = null;
    vid.pending.strokes.push({ first, last, stroke });
    document.body.dataset.videoPending = String(pendingCount());
    status("Pen stroke on frames " + first + "–" + last + "; Render to apply.", "video");
    drawVideo(); return;
  }
  const d = vid.drag; vid.drag = null; if (!d) return;
  const W = overlay.width, H = overlay.height;
  const x = Math.min(d.x0, d.x1), y = Math.min(d.y0, d.y1), w = Math.abs(d.x1 - d.x0), h = Math.abs(d.y1 - d.y0);
  if (w < 4 || h < 4) { drawVideo(); return; }
  const key = { frame: vid.frame, box: { x: x / W, y: y / H, width: w / W, height: h / H } };
  const last = vid.pending.add[vid.pending.add.length - 1];
  if ($("video-keys").checked && last) { last.keys = last.keys.filter((k) => k.frame !== key.frame).concat([key]); }
  else vid.pending.add.push({ keys: [key] });
  document.body.dataset.videoPending = String(pendingCount());
  status($("video-keys").checked && last ? "Key frame " + key.frame + " added; Render to apply." : "Box added at frame " + key.frame + ", followed before and after it; Render to apply.", "video");
  drawVideo();
});

// Render: the pending edits as the CLI spells them, then the job's progress.
async function renderVideo() {
  const name = vid.name, s = vid.state, form = new FormData();
  if (s) {
    const W = s.source.width, H = s.source.height, px = (v) => Math.round(v * 10) / 10;
    if (vid.pending.drop.size) form.append("drop-track", [...vid.pending.drop].join(","));
    if (vid.pending.keep.size) form.append("keep-track", [...vid.pending.keep].join(","));
    if (vid.pending.uncover.size) form.append("uncover-person", [...vid.pending.uncover].join(","));
    if (vid.pending.cover.size) form.append("cover-person", [...vid.pending.cover].join(","));
    if (vid.pending.merge.length) form.append("merge-tracks", vid.pending.merge.map((g) => g.join(",")).join(";"));
    // The pen as the CLI spells it: "F1-F2:x1,y1 x2,y2 ...@width" in pixels of the frame.
    if (vid.pending.strokes.length) form.append("stroke", vid.pending.strokes.map((p) => p.first + "-" + p.last + ":"
      + p.stroke.points.map(([x, y]) => px(x * W) + "," + px(y * H)).join(" ") + "@" + px(p.stroke.width * Math.max(W, H))).join(";"));
    if (vid.pending.add.length) form.append("add", vid.pending.add.map((a) => a.keys.map((k) => k.frame + ":" + [px(k.box.x * W), px(k.box.y * H), px(k.box.width * W), px(k.box.height * H)].join(",")).join(" ")).join(";"));
  }
  if ($("video-style").value) form.append("style", $("video-style").value);
  $("video-render").disabled = true;
  const bar = $("video-progress"); bar.hidden = false; bar.value = 0;
  try {
    await post("/v1/videos/" + encodeURIComponent(name) + "/render", form);
    let job;
    busy(+1);
    try {
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        job = await (await request("/v1/videos/" + encodeURIComponent(name) + "/job")).json();
        if (job.total) bar.value = job.frames / job.total;
        if (job.status === "running") status((job.detector === "ran" ? "Finding faces in " : "Rendering ") + name + ": frame " + job.frames + " of " + job.total + "…", "video");
        if (job.status === "done" || job.status === "failed") break;
      }
    } finally { busy(-1); }
    if (job.status === "failed") throw new Error(job.error);
    if (name !== vid.name) return;
    const state = await (await request("/v1/videos/" + encodeURIComponent(name) + "/state")).json();
    vid.pending = { drop: new Set(), keep: new Set(), uncover: new Set(), cover: new Set(), add: [], strokes: [], merge: [] }; vid.mergeFrom = null;
    document.body.dataset.videoPending = "0";
    useState(state);
    if ($("video-show-result").checked) showVideoSource();
    status(name + ": " + describeTracks() + (job.detector === "ran" ? "; faces found and covered" : "; rendered without detecting again") + " in " + job.seconds.toFixed(1) + " s.", "video");
    document.body.dataset.videoRendered = String(Number(document.body.dataset.videoRendered || 0) + 1);
    listVideos();
  } catch (error) { showError(name + ": " + error.message); }
  finally { bar.hidden = true; enableVideo(); }
}
$("video-render").onclick = () => { if (vid.name) renderVideo(); };
async function downloadVideo(what) {
  try {
    const response = await request("/v1/videos/" + encodeURIComponent(vid.name) + "/" + what);
    const disposition = response.headers.get("Content-Disposition") || "";
    download(await response.blob(), (disposition.match(/filename="([^"]+)"/) || [])[1] || vid.name + "-" + what);
  } catch (error) { showError(error.message); }
}
$("video-download").onclick = () => downloadVideo("result");
$("video-download-state").onclick = () => downloadVideo("state");
// The track sheet opens beside the editor: a reviewer finds a person by face, then their id here.
$("video-sheet").onclick = async () => {
  try {
    const response = await request("/v1/videos/" + encodeURIComponent(vid.name) + "/sheet");
    window.open(URL.createObjectURL(await response.blob()), "_blank");
  } catch (error) { showError(error.message); }
};
function videoKey(e) {
  const keys = { " ": () => $("video-play").click(), c: () => $("video-show-result").click(), v: () => setVideoTool("toggle"), e: () => setVideoTool("person"), b: () => setVideoTool("box"), p: () => setVideoTool("pen"), m: () => setVideoTool("merge"), r: () => $("video-render").click(),
    d: () => $("video-download").click(), s: () => $("video-download-state").click(),
    ArrowLeft: () => { player.pause(); seekFrame(vid.frame - 1); }, ArrowRight: () => { player.pause(); seekFrame(vid.frame + 1); } };
  if (!e.ctrlKey && !e.metaKey && keys[e.key] && !e.target.matches("select, input[type=number]")) { e.preventDefault(); keys[e.key](); }
}
$("tab-video").addEventListener("click", listVideos);

// ---- Live tab ------------------------------------------------------------------
// The server covers each frame as it arrives and sends it as MJPEG, which an
// <img> shows as it comes; the style applies to the source, for every viewer.
const live = { name: "", timer: null };
const liveURL = (name) => "/v1/live/" + encodeURIComponent(name) + (ui.token ? "?token=" + encodeURIComponent(ui.token) : "");
async function listLive() {
  try {
    const list = await (await request("/v1/live")).json();
    fillPicker($("live-pick"), list.live.map((l) => [l.name, l.name]));
    document.body.dataset.liveSources = String(list.live.length);
    showFigures(list.live.find((l) => l.name === live.name));
  } catch (error) { showError(error.message); }
}
function showFigures(l) {
  if (!l) { $("live-figures").textContent = ""; return; }
  const ms = (v) => v === undefined ? "–" : Math.round(v * 1000) + " ms";
  $("live-figures").textContent = l.status + (l.width ? " · " + l.width + "×" + l.height : "") + " · " + l.shown + " frames shown, " + l.dropped + " dropped · latency p50 " + ms(l.p50) + ", p99 " + ms(l.p99);
  document.body.dataset.liveShown = String(l.shown);
}
function watchLive(name) {
  stopLive();
  live.name = name;
  $("live-empty").hidden = !!name; $("live-view").hidden = !name;
  if (!name) return;
  clearError();
  $("live-view").src = liveURL(name);
  status("Watching " + name + ", faces covered.", "live");
  live.timer = setInterval(listLive, 1000);
}
// Leaving the tab ends the stream (the server stops covering a source nobody watches).
function stopLive() {
  if (live.timer) clearInterval(live.timer);
  live.timer = null;
  const view = $("live-view");
  if (view.getAttribute("src")) { view.removeAttribute("src"); view.hidden = true; $("live-empty").hidden = false; live.name = ""; $("live-pick").value = ""; }
}
$("live-view").onerror = () => { if (live.name) showError(live.name + ": the live view stopped; choose the source again to retry."); };
$("live-pick").onchange = () => watchLive($("live-pick").value);
async function setLiveStyle() {
  const s = $("live-style").value;
  $("live-color-label").hidden = s !== "solid";
  $("live-picture-open").hidden = s !== "image";
  if (!live.name) return;
  const form = new FormData();
  if (s === "image") {
    const picture = $("live-picture").files[0];
    if (!picture) { status("Choose the picture to put over each face.", "live"); return; }
    form.append("style", "image"); form.append("picture", picture, picture.name);
  } else form.append("style", s === "solid" ? "solid=" + $("live-color").value : s);
  try {
    await post("/v1/live/" + encodeURIComponent(live.name) + "/style", form);
    document.body.dataset.liveStyle = s;
    status(live.name + ": " + $("live-style").selectedOptions[0].textContent.toLowerCase() + " over every face from the next frame on.", "live");
    clearError();
  } catch (error) { showError(error.message); }
}
for (const id of ["live-style", "live-color", "live-picture"]) $(id).onchange = setLiveStyle;
$("tab-live").addEventListener("click", listLive);

// ---- keyboard -------------------------------------------------------------
document.addEventListener("keydown", (e) => {
  if (e.target.matches("input[type=text], input[type=password], select")) return;
  if (e.altKey && e.key === "1") { selectTab("faces"); return; }
  if (e.altKey && e.key === "2") { selectTab("subject"); return; }
  if (e.altKey && e.key === "3") { selectTab("video"); return; }
  if (e.altKey && e.key === "4") { selectTab("live"); return; }
  if (activeTab() === "video") { videoKey(e); return; }
  if (activeTab() === "subject") {
    if (e.key === "a") $("subject-all").click();
    else if (e.key === "d") $("subject-download").click();
    else if (e.key === "o") $("subject-file").click();
    return;
  }
  if ((e.ctrlKey || e.metaKey) && e.key === "z") { e.preventDefault(); $("undo").click(); return; }
  const keys = { v: () => setTool("select"), b: () => setTool("box"), p: () => setTool("pen"), o: () => $("faces-file").click(), t: () => $("cover-text").click(),
    d: () => $("download-result").click(), s: () => $("download-state").click(), Enter: () => $("confirm").click(),
    O: () => $("outlines").click(),
    "[": () => { $("pen-width").value = Number($("pen-width").value) - 4; }, "]": () => { $("pen-width").value = Number($("pen-width").value) + 4; },
    ArrowLeft: () => showPhoto(faces.current - 1), ArrowRight: () => showPhoto(faces.current + 1) };
  if (!e.ctrlKey && !e.metaKey && keys[e.key]) { e.preventDefault(); keys[e.key](); }
});
document.body.dataset.busy = "0";
