/// The editor's markup: two tabs (Faces, Subject), each a toolbar over a canvas.
enum WebEditorMarkup {
    static let html = #"""
    <header>
      <h1>Veil</h1>
      <nav role="tablist" aria-label="Editor">
        <button role="tab" id="tab-faces" aria-selected="true" aria-controls="faces" title="Faces (Alt+1)">Faces</button>
        <button role="tab" id="tab-subject" aria-selected="false" aria-controls="subject" title="Subject (Alt+2)">Subject</button>
      </nav>
      <div id="token-row"><label for="token">Token</label><input id="token" type="password" autocomplete="off" placeholder="bearer token"><button id="token-save">Use</button></div>
      <div id="status" role="status" aria-live="polite"><span id="spinner" aria-hidden="true"></span><span id="status-text">Open a photo to begin.</span></div>
    </header>
    <div id="error" role="alert"></div>
    <main>
      <section role="tabpanel" id="faces" class="active" aria-labelledby="tab-faces">
        <div class="toolbar">
          <span class="button open"><button tabindex="-1">Open photos…</button><input id="faces-file" type="file" accept="image/*,.json" multiple aria-label="Open photos (and their saved editing states)"></span>
          <div class="group" role="group" aria-label="Tool">
            <button id="tool-select" aria-pressed="true" title="Click a face to cover or uncover it (V)">Toggle</button>
            <button id="tool-box" aria-pressed="false" title="Drag to cover a box (B)">Box</button>
            <button id="tool-pen" aria-pressed="false" title="Paint over anything to cover it (P)">Pen</button>
          </div>
          <label>Width <input id="pen-width" type="range" min="4" max="120" value="24" aria-label="Pen width"></label>
          <label>Style <select id="style"><option value="pixelate">Pixelate</option><option value="blur">Blur</option><option value="solid">Solid</option></select></label>
          <label>Strength <input id="strength" type="range" min="0.25" max="4" step="0.25" value="1" aria-label="Strength"></label>
          <label>Shape <select id="shape"><option value="disc">Disc</option><option value="ellipse">Ellipse</option><option value="box">Box</option></select></label>
          <button id="undo" title="Undo (Ctrl+Z)" disabled>Undo</button>
          <button id="confirm" class="primary" title="Freeze this list of regions (Enter)" disabled>Confirm</button>
          <button id="download-result" title="Download the covered photo (D)" disabled>Download photo</button>
          <button id="download-state" title="Download the editing state (S)" disabled>Download state</button>
        </div>
        <div id="photos" aria-label="Open photos"></div>
        <div class="stage" id="faces-stage"><p class="empty" id="faces-empty">Open one or more photos: every face is covered at once with a soft pixelation. Click a face to uncover or cover it again, drag a box or use the pen to cover more, then confirm and download. Photos opened before come back with their saved edits, without detecting again.</p><canvas id="faces-canvas" tabindex="0" hidden aria-label="Photo with covered faces"></canvas></div>
        <div class="hint"><kbd>V</kbd> toggle <kbd>B</kbd> box <kbd>P</kbd> pen <kbd>[</kbd><kbd>]</kbd> pen width <kbd>Enter</kbd> confirm <kbd>Ctrl+Z</kbd> undo <kbd>D</kbd> download <kbd>←</kbd><kbd>→</kbd> photos</div>
      </section>
      <section role="tabpanel" id="subject" aria-labelledby="tab-subject">
        <div class="toolbar">
          <span class="button open"><button tabindex="-1">Open photo…</button><input id="subject-file" type="file" accept="image/*" aria-label="Open photo"></span>
          <label>Effect <select id="effect"><option value="remove">Remove background</option><option value="replace">Replace background</option><option value="color">Colour background</option><option value="highlight">Highlight subject</option><option value="bokeh">Bokeh</option></select></label>
          <span class="button open" id="background-open" hidden><button tabindex="-1">Background…</button><input id="background-file" type="file" accept="image/*" aria-label="Background picture"></span>
          <label id="color-label" hidden>Colour <input id="color" type="color" value="#ffffff"></label>
          <label id="amount-label" hidden><span id="amount-name">Amount</span> <input id="amount" type="range" min="1" max="40" value="12"></label>
          <label><input id="crop" type="checkbox"> Crop</label>
          <button id="subject-all" title="All subjects (A)" disabled>All subjects</button>
          <button id="subject-download" title="Download (D)" disabled>Download</button>
        </div>
        <div class="stage"><p class="empty" id="subject-empty">Open a photo, then click a subject to lift it (click the background for every subject). Choose what happens to the background.</p><canvas id="subject-canvas" tabindex="0" hidden aria-label="Photo with the lifted subject"></canvas></div>
        <div class="hint">Click a subject; <kbd>A</kbd> all subjects; <kbd>D</kbd> download</div>
      </section>
    </main>
    """#
}
