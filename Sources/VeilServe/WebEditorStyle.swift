/// The editor's CSS: a toolbar over a canvas that fits the window, readable
/// from narrow windows up to 1280x800 and beyond.
enum WebEditorStyle {
    static let css = #"""
    :root { --bg:#15171a; --panel:#202328; --line:#343841; --text:#e8eaed; --dim:#9aa0a6; --accent:#4f9dff; --bad:#ff6b6b; --ok:#5bd18b; }
    * { box-sizing: border-box; }
    [hidden] { display:none !important; }
    html, body { margin:0; height:100%; background:var(--bg); color:var(--text); font:15px/1.4 system-ui, sans-serif; }
    header { display:flex; flex-wrap:wrap; align-items:center; gap:.5rem 1rem; padding:.5rem 1rem; background:var(--panel); border-bottom:1px solid var(--line); }
    header h1 { font-size:1.1rem; margin:0; letter-spacing:.05em; }
    nav[role=tablist] button { background:none; border:none; color:var(--dim); padding:.4rem .8rem; border-bottom:2px solid transparent; font-size:1rem; cursor:pointer; }
    nav[role=tablist] button[aria-selected=true] { color:var(--text); border-bottom-color:var(--accent); }
    #status { margin-left:auto; display:flex; align-items:center; gap:.5rem; min-height:1.6rem; color:var(--dim); }
    #spinner { width:1rem; height:1rem; border:2px solid var(--line); border-top-color:var(--accent); border-radius:50%; visibility:hidden; animation:spin .8s linear infinite; }
    body[data-busy="1"] #spinner { visibility:visible; }
    @keyframes spin { to { transform:rotate(360deg); } }
    #error { display:none; background:#3a1f22; color:#ffd7d7; border-bottom:1px solid var(--bad); padding:.5rem 1rem; }
    #error.shown { display:block; }
    #token-row { display:none; gap:.5rem; align-items:center; }
    #token-row.shown { display:flex; }
    main { display:flex; flex-direction:column; height:calc(100% - 3.2rem); }
    section[role=tabpanel] { display:none; flex:1; min-height:0; flex-direction:column; }
    section[role=tabpanel].active { display:flex; }
    .toolbar { display:flex; flex-wrap:wrap; gap:.4rem .8rem; align-items:center; padding:.5rem 1rem; border-bottom:1px solid var(--line); background:var(--panel); }
    .toolbar label { display:flex; align-items:center; gap:.3rem; color:var(--dim); }
    .group { display:flex; gap:.25rem; align-items:center; }
    button, select, input[type=number] { background:#2b2f36; color:var(--text); border:1px solid var(--line); border-radius:6px; padding:.35rem .7rem; font:inherit; cursor:pointer; }
    button:hover { border-color:var(--accent); }
    button:focus-visible, select:focus-visible, input:focus-visible, canvas:focus-visible { outline:2px solid var(--accent); outline-offset:2px; }
    button[aria-pressed=true] { background:var(--accent); color:#0b1220; border-color:var(--accent); }
    button.primary { background:var(--ok); color:#08140d; border-color:var(--ok); }
    button:disabled { opacity:.45; cursor:default; }
    .open { position:relative; overflow:hidden; }
    .open input { position:absolute; inset:0; opacity:0; cursor:pointer; }
    .stage { flex:1; min-height:0; display:flex; align-items:center; justify-content:center; padding:.75rem; overflow:auto; }
    .stage canvas { max-width:100%; max-height:100%; background:repeating-conic-gradient(#2a2d33 0 25%, #1d2024 0 50%) 0 0/20px 20px; cursor:crosshair; touch-action:none; }
    .empty { color:var(--dim); text-align:center; max-width:32rem; }
    #photos { display:flex; gap:.4rem; flex-wrap:wrap; padding:.3rem 1rem; border-bottom:1px solid var(--line); }
    #photos:empty { display:none; }
    #photos button { font-size:.85rem; padding:.2rem .6rem; }
    #photos button[aria-current=true] { border-color:var(--accent); color:var(--accent); }
    .hint { color:var(--dim); font-size:.85rem; padding:.3rem 1rem; }
    kbd { border:1px solid var(--line); border-radius:4px; padding:0 .3rem; font-size:.8rem; }
    @media (max-width: 700px) { body { font-size:14px; } .toolbar { padding:.4rem .5rem; } .hint { display:none; } #status { margin-left:0; width:100%; } }
    """#
}
