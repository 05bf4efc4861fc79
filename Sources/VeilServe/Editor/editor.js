"use strict";
const $ = (id) => document.getElementById(id);
const ui = { busy: 0, token: sessionStorage.getItem("veil-token") || "" };

// ---- status, errors, requests -------------------------------------------
function status(text) { $("status-text").textContent = text; }
function showError(message) { const e = $("error"); e.textContent = message; e.classList.add("shown"); status("Something went wrong."); }
function clearError() { $("error").classList.remove("shown"); }
function busy(delta) { ui.busy += delta; document.body.dataset.busy = ui.busy > 0 ? "1" : "0"; }

async function post(path, form) {
  busy(+1);
  try {
    const headers = ui.token ? { Authorization: "Bearer " + ui.token } : {};
    const response = await fetch(path, { method: "POST", body: form, headers });
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
function selectTab(name) {
  for (const tab of ["faces", "subject"]) {
    $("tab-" + tab).setAttribute("aria-selected", String(tab === name));
    $(tab).classList.toggle("active", tab === name);
  }
}
$("tab-faces").onclick = () => selectTab("faces");
$("tab-subject").onclick = () => selectTab("subject");
const activeTab = () => $("faces").classList.contains("active") ? "faces" : "subject";

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
function edit(change) {
  const p = photo(); if (!p || !p.state) return;
  p.history.push(JSON.stringify(p.state));
  change(p.state);
  $("undo").disabled = false;
  render();
}
function styleSpelling() {
  const s = $("style").value, k = Number($("strength").value);
  if (s === "solid") return "solid=#000000";
  return k === 1 ? s : s + "=" + k;
}
function syncControls(state) {
  const [name, value] = state.style.split("=");
  if (["pixelate", "blur", "solid"].includes(name)) $("style").value = name;
  $("strength").value = name === "solid" || !value ? 1 : value;
  $("shape").value = state.shape;
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
    status("Finding faces in " + file.name + "…");
    try {
      p.original = await loadImage(file);
      await send(p);
    } catch (error) { showError(file.name + ": " + error.message); }
  }
}

// Sends the photo with its current state; keeps the latest answer only.
async function send(p) {
  const form = new FormData();
  form.append("image", p.file, p.name);
  if (p.state) form.append("state", new Blob([JSON.stringify(p.state)], { type: "application/json" }));
  const response = await post("/v1/blur", form);
  const blob = await response.blob();
  const state = await answeredState(response);
  const detector = response.headers.get("X-Veil-Detector");
  p.result = blob;
  p.image = await loadImage(blob);
  if (!p.state) p.state = state; else { p.state.faces = state.faces; p.state.source = state.source; p.state.exported = state.exported; }
  const n = state.faces.status === "recognized" ? state.faces.faces.length : 0;
  if (p === photo()) {
    draw();
    syncControls(p.state);
    status(p.name + ": " + n + " face" + (n === 1 ? "" : "s") + (detector === "reused" ? " (saved edits, not detected again)" : "") + ", " + effectiveRegions(p.state).length + " covered" + (p.state.regions.status === "confirmed" ? ", confirmed" : "") + ".");
  }
  document.body.dataset.faces = String(n);
  document.body.dataset.covered = String(effectiveRegions(p.state).length);
  document.body.dataset.confirmed = p.state.regions.status === "confirmed" ? "1" : "0";
  document.body.dataset.rendered = String(Number(document.body.dataset.rendered || 0) + 1);
  enableFaces();
}
async function render() {
  const p = photo(); if (!p) return;
  draw();
  if (faces.sending) { faces.again = true; return; }
  faces.sending = true;
  try {
    do { faces.again = false; status("Rendering " + p.name + "…"); await send(p); } while (faces.again);
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
  if (!p.state) return;
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
  const d = faces.drag;
  if (d && d.kind === "box") { fctx.strokeStyle = "#fff"; fctx.setLineDash([line * 2, line * 2]); fctx.strokeRect(d.x0, d.y0, d.x1 - d.x0, d.y1 - d.y0); fctx.setLineDash([]); }
  if (d && d.kind === "pen" && d.points.length) {
    fctx.strokeStyle = "rgba(255,255,255,.6)"; fctx.lineCap = "round"; fctx.lineJoin = "round"; fctx.lineWidth = penWidth();
    fctx.beginPath(); fctx.moveTo(d.points[0].x, d.points[0].y); for (const q of d.points) fctx.lineTo(q.x, q.y); fctx.stroke();
  }
}
function penWidth() { return Number($("pen-width").value) * Math.max(fcanvas.width, fcanvas.height) / 1000; }

function listPhotos() {
  const list = $("photos"); list.textContent = "";
  faces.photos.forEach((p, i) => {
    const b = document.createElement("button");
    b.textContent = p.name; b.setAttribute("aria-current", String(i === faces.current));
    b.onclick = () => showPhoto(i);
    list.appendChild(b);
  });
}
function showPhoto(i) {
  if (i < 0 || i >= faces.photos.length) return;
  faces.current = i; listPhotos(); draw();
  const p = photo(); if (p.state) syncControls(p.state);
  enableFaces();
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
  const hit = list.findIndex((f) => inside(f.box));
  if (hit < 0) { status("No face there: drag a box (B) or use the pen (P) to cover more."); return; }
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
for (const id of ["style", "strength", "shape"]) $(id).onchange = () => edit((s) => { s.style = styleSpelling(); s.shape = $("shape").value; });
$("undo").onclick = () => { const p = photo(); if (!p || !p.history.length) return; p.state = JSON.parse(p.history.pop()); syncControls(p.state); enableFaces(); render(); };
$("confirm").onclick = () => edit((s) => { s.regions = { status: "confirmed", regions: effectiveRegions(s) }; });
$("download-result").onclick = () => { const p = photo(); if (p && p.result) download(p.result, baseName(p.name) + "-veil." + (p.result.type.split("/")[1] || "png").replace("jpeg", "jpg")); };
$("download-state").onclick = () => { const p = photo(); if (p && p.state) download(new Blob([JSON.stringify(p.state, null, 2)], { type: "application/json" }), baseName(p.name) + "-veil.veil.json"); };

// ---- Subject tab -----------------------------------------------------------
const subject = { file: null, original: null, result: null, tap: null, background: null };
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
  if ($("effect").value === "replace" && !subject.background) { status("Choose a background picture first."); $("background-file").click(); return; }
  subject.tap = tap;
  const q = new URLSearchParams({ effect: effectSpelling() });
  // The API takes a tap as Vision's UIs send it: normalized, origin top-left.
  if (tap) q.set("tap", (tap.x / scanvas.width).toFixed(4) + "," + (tap.y / scanvas.height).toFixed(4));
  if ($("crop").checked) q.set("crop", "1");
  const form = new FormData();
  form.append("image", subject.file, subject.file.name);
  if (subject.background) form.append("background", subject.background, subject.background.name);
  status("Lifting the subject…");
  try {
    const response = await post("/v1/lift?" + q, form);
    subject.result = await response.blob();
    showSubject(await loadImage(subject.result));
    const n = response.headers.get("X-Veil-Instances");
    status(n === "0" ? "No subject found." : "Lifted subject " + response.headers.get("X-Veil-Chosen") + " of " + n + ".");
    $("subject-download").disabled = false;
    document.body.dataset.lifted = String(Number(document.body.dataset.lifted || 0) + 1);
    clearError();
  } catch (error) { showError(error.message); }
}
$("subject-file").onchange = async (e) => {
  const file = e.target.files[0]; e.target.value = ""; if (!file) return;
  clearError();
  try {
    subject.file = file; subject.original = await loadImage(file); subject.result = null; subject.tap = null;
    showSubject(subject.original);
    $("subject-all").disabled = false;
    status("Click a subject to lift it (the background: every subject).");
  } catch (error) { showError(error.message); }
};
$("background-file").onchange = (e) => { subject.background = e.target.files[0] || null; if (subject.file) lift(subject.tap); };
scanvas.addEventListener("pointerdown", (e) => { if (subject.file) lift(imagePoint(scanvas, e)); });
$("subject-all").onclick = () => lift(null);
for (const id of ["effect", "color", "amount", "crop"]) $(id).onchange = () => { syncEffect(); if (subject.result) lift(subject.tap); };
$("subject-download").onclick = () => { if (subject.result) download(subject.result, baseName(subject.file.name) + "-lifted." + (subject.result.type === "image/webp" ? "webp" : "png")); };
syncEffect();

// ---- keyboard -------------------------------------------------------------
document.addEventListener("keydown", (e) => {
  if (e.target.matches("input[type=text], input[type=password], select")) return;
  if (e.altKey && e.key === "1") { selectTab("faces"); return; }
  if (e.altKey && e.key === "2") { selectTab("subject"); return; }
  if (activeTab() === "subject") {
    if (e.key === "a") $("subject-all").click();
    else if (e.key === "d") $("subject-download").click();
    else if (e.key === "o") $("subject-file").click();
    return;
  }
  if ((e.ctrlKey || e.metaKey) && e.key === "z") { e.preventDefault(); $("undo").click(); return; }
  const keys = { v: () => setTool("select"), b: () => setTool("box"), p: () => setTool("pen"), o: () => $("faces-file").click(),
    d: () => $("download-result").click(), s: () => $("download-state").click(), Enter: () => $("confirm").click(),
    "[": () => { $("pen-width").value = Number($("pen-width").value) - 4; }, "]": () => { $("pen-width").value = Number($("pen-width").value) + 4; },
    ArrowLeft: () => showPhoto(faces.current - 1), ArrowRight: () => showPhoto(faces.current + 1) };
  if (!e.ctrlKey && !e.metaKey && keys[e.key]) { e.preventDefault(); keys[e.key](); }
});
document.body.dataset.busy = "0";
