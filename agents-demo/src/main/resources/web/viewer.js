// crowdtree live viewer: fetches binary frames (see FrameFormat.java) and draws them on a canvas.
// No build step, no external resources. For tests, body.dataset.frames counts drawn frames and
// body.dataset.agentPixels counts the canvas pixels drawn in agent colours in the last frame.
'use strict';
(() => {
  const HEADER = 64;
  const MAGIC = 0x31465443; // "CTF1"
  const NO_STATE = 255;
  const BG_RGB = 0x15181c;
  const LITTLE = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

  // With serve --token the page is opened as /?token=...; every request then carries the token.
  const TOKEN = new URLSearchParams(location.search).get('token');
  function api(url, init) {
    const o = Object.assign({ cache: 'no-store' }, init || {});
    if (TOKEN) o.headers = Object.assign({ Authorization: 'Bearer ' + TOKEN }, o.headers || {});
    return fetch(url, o);
  }

  const $ = id => document.getElementById(id);
  const body = document.body;
  const canvas = $('map');
  const ctx = canvas.getContext('2d', { alpha: false });
  const playBtn = $('play');
  const speedSel = $('speed');

  let meta = null;
  const colors32 = new Uint32Array(256); // per state id, in ImageData's byte order
  const bg32 = pixel(BG_RGB);
  let image = null;
  let pix = null; // Uint32 view of image
  let mapSize = 0;
  let offX = 0;
  let offY = 0;
  let pending = null; // the latest frame fetched and not drawn yet
  let lastFrame = null; // the last frame drawn (redrawn on resize)
  let inFlight = false;
  let retryAt = 0;
  let lastSeq = -1;
  let frames = 0;
  let paused = false;
  let speed = 1;
  let selected = -1;
  let selectionAt = 0; // when this page last changed the selection
  let adopting = false;
  let agentTimer = 0;
  let fpsCount = 0;
  let fpsStart = performance.now();
  let viewerFps = 0;
  let drawMs = 0; // moving average of the time to draw a frame
  let panelAt = 0;
  let lastLoop = 0;
  const legendRows = [];

  function pixel(rgb) {
    const r = (rgb >> 16) & 255;
    const g = (rgb >> 8) & 255;
    const b = rgb & 255;
    return (LITTLE ? ((255 << 24) | (b << 16) | (g << 8) | r) : ((r << 24) | (g << 16) | (b << 8) | 255)) >>> 0;
  }

  function showError(msg) {
    const e = $('error');
    e.textContent = msg;
    e.hidden = !msg;
  }

  // ---- setup ----------------------------------------------------------------------------------

  async function init() {
    try {
      const r = await api('meta');
      if (!r.ok) throw new Error('GET /meta: HTTP ' + r.status);
      meta = await r.json();
    } catch (e) {
      showError('cannot load /meta: ' + e.message);
      setTimeout(init, 1000);
      return;
    }
    colors32.fill(bg32);
    const tbody = $('legend').tBodies[0];
    tbody.textContent = '';
    legendRows.length = 0;
    for (const s of meta.states) {
      colors32[s.id] = pixel(parseInt(s.color.slice(1), 16));
      const tr = document.createElement('tr');
      if (!s.leaf) tr.className = 'inner';
      tr.innerHTML = '<td><span class="swatch"></span></td><td class="name"></td><td class="num"></td><td class="pct"></td>';
      tr.cells[0].firstChild.style.background = s.color;
      tr.cells[1].textContent = s.leaf ? s.name : s.name + '/';
      tr.cells[1].title = s.path;
      tr.cells[1].style.paddingLeft = (2 + 10 * Math.max(0, s.depth - 1)) + 'px';
      tbody.appendChild(tr);
      legendRows.push({ tr, count: tr.cells[2], pct: tr.cells[3] });
    }
    $('agents').textContent = meta.agents.toLocaleString('en');
    resize();
    window.addEventListener('resize', resize);
    requestAnimationFrame(loop);
    // Fallback when animation frames do not come (some headless modes): keep pulling and drawing.
    setInterval(() => { if (performance.now() - lastLoop > 200) step(performance.now()); }, 100);
    loadStats();
  }

  // Awake share and LOD bands, once a second from /stats.
  function loadStats() {
    api('stats')
      .then(r => r.json())
      .then(j => {
        if (j.error) throw new Error(j.error);
        $('awake').textContent = (100 * j.awakeShare).toFixed(1) + '% of running';
        const lod = j.lod;
        if (!lod.enabled) {
          $('lod').textContent = 'off';
        } else {
          $('lod').textContent = lod.bands.map(b => b.period + '\u00d7 ' + b.agents.toLocaleString('en')).join(' \u00b7 ')
            + ' (at ' + lod.observer.at + ')';
          $('lod').title = lod.bands.map(b => b.label + ': ' + b.agents.toLocaleString('en') + ' agents').join('\n');
        }
      })
      .catch(() => {})
      .finally(() => setTimeout(loadStats, 1000));
  }

  function resize() {
    const w = Math.max(1, canvas.clientWidth);
    const h = Math.max(1, canvas.clientHeight);
    canvas.width = w;
    canvas.height = h;
    mapSize = Math.max(64, Math.min(w, h) - 16);
    offX = Math.floor((w - mapSize) / 2);
    offY = Math.floor((h - mapSize) / 2);
    image = ctx.createImageData(mapSize, mapSize);
    pix = new Uint32Array(image.data.buffer);
    if (lastFrame) draw(lastFrame, false);
  }

  // ---- frame loop: one fetch in flight, draw on animation frames ------------------------------

  function loop(now) {
    requestAnimationFrame(loop);
    step(now);
  }

  function step(now) {
    lastLoop = performance.now();
    if (pending) {
      const b = pending;
      pending = null;
      try {
        draw(b, true);
      } catch (e) {
        showError('bad frame: ' + e.message);
      }
    }
    if (!inFlight && now >= retryAt) fetchFrame();
  }

  function fetchFrame() {
    inFlight = true;
    // after=<seq>: the server answers when a newer frame is published (or after a second)
    api('frame?after=' + lastSeq)
      .then(r => {
        if (!r.ok) throw new Error('GET /frame: HTTP ' + r.status);
        return r.arrayBuffer();
      })
      .then(buf => {
        pending = buf;
        lastSeq = new DataView(buf).getUint32(16, true);
        inFlight = false;
        if (!$('error').hidden) showError('');
      })
      .catch(e => {
        inFlight = false;
        retryAt = performance.now() + 1000;
        showError('lost the server (' + e.message + '); retrying');
      });
  }

  // ---- drawing ----------------------------------------------------------------------------------

  function draw(buf, fresh) {
    const t0 = performance.now();
    const dv = new DataView(buf);
    if (buf.byteLength < HEADER || dv.getUint32(0, true) !== MAGIC) throw new Error('not a CTF1 frame');
    const tick = Number(dv.getBigInt64(8, true));
    const n = dv.getUint32(20, true);
    const S = dv.getUint16(24, true);
    const T = dv.getUint16(26, true);
    const O = dv.getUint32(28, true);
    const world = dv.getFloat32(32, true);
    const tps = dv.getFloat32(36, true);
    const spd = dv.getFloat32(40, true);
    const flags = dv.getUint8(44);
    const sel = dv.getInt32(48, true);
    const selX = dv.getUint16(52, true);
    const selY = dv.getUint16(54, true);
    const tickMs = dv.getFloat32(56, true);
    const running = dv.getUint32(60, true);
    const thOff = HEADER + 4 * S;
    const posOff = thOff + 8 * T;
    const stOff = posOff + 4 * n;
    const objOff = stOff + n;
    if (buf.byteLength !== objOff + O) {
      throw new Error('frame of ' + buf.byteLength + ' bytes, expected ' + (objOff + O));
    }
    let pos;
    if (LITTLE) {
      pos = new Uint16Array(buf, posOff, 2 * n);
    } else {
      pos = new Uint16Array(2 * n);
      for (let i = 0; i < 2 * n; i++) pos[i] = dv.getUint16(posOff + 2 * i, true);
    }
    const st = new Uint8Array(buf, stOff, n);

    // agents into the ImageData: 1 px each, 2x2 when the crowd is sparse
    const size = mapSize;
    const p32 = pix;
    const c32 = colors32;
    const bg = bg32;
    const k = size / 65536;
    let count = 0;
    p32.fill(bg);
    if (n < 20000) {
      const last = size - 2;
      for (let i = 0, j = 0; i < n; i++, j += 2) {
        const s = st[i];
        if (s === NO_STATE) continue;
        const x = Math.min(last, (pos[j] * k) | 0);
        const y = Math.min(last, (pos[j + 1] * k) | 0);
        const c = c32[s];
        const a = y * size + x;
        if (p32[a] === bg) count++;
        if (p32[a + 1] === bg) count++;
        if (p32[a + size] === bg) count++;
        if (p32[a + size + 1] === bg) count++;
        p32[a] = c; p32[a + 1] = c; p32[a + size] = c; p32[a + size + 1] = c;
      }
    } else {
      for (let i = 0, j = 0; i < n; i++, j += 2) {
        const s = st[i];
        if (s === NO_STATE) continue;
        const a = ((pos[j + 1] * k) | 0) * size + ((pos[j] * k) | 0);
        if (p32[a] === bg) count++;
        p32[a] = c32[s];
      }
    }
    ctx.fillStyle = '#101316';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.putImageData(image, offX, offY);
    ctx.strokeStyle = '#2b3036';
    ctx.lineWidth = 1;
    ctx.strokeRect(offX - 0.5, offY - 0.5, size + 1, size + 1);

    // smart objects: small squares, yellow when in use
    const wk = size / world;
    const used = new Uint8Array(buf, objOff, O);
    const ox = meta.smartObjects.x;
    const oy = meta.smartObjects.y;
    const sq = size > 700 ? 3 : 2;
    for (let pass = 0; pass < 2; pass++) {
      ctx.beginPath();
      for (let o = 0; o < O && o < ox.length; o++) {
        if ((used[o] > 0) !== (pass === 1)) continue;
        ctx.rect(Math.round(offX + ox[o] * wk) - 1, Math.round(offY + oy[o] * wk) - 1, sq, sq);
      }
      ctx.fillStyle = pass === 1 ? '#c9b458' : '#5a5a50';
      ctx.fill();
    }

    // threats: fires as filled circles, predators as red rings
    for (let t = 0, p = thOff; t < T; t++, p += 8) {
      if (dv.getUint8(p + 7) === 0) continue;
      const cx = offX + dv.getUint16(p, true) * k;
      const cy = offY + dv.getUint16(p + 2, true) * k;
      const r = Math.max(4, dv.getUint16(p + 4, true) * k);
      ctx.beginPath();
      ctx.arc(cx, cy, r, 0, 2 * Math.PI);
      if (dv.getUint8(p + 6) === 1) {
        ctx.fillStyle = 'rgba(255,120,0,0.28)';
        ctx.fill();
        ctx.strokeStyle = '#ff7a00';
      } else {
        ctx.strokeStyle = '#ff3b3b';
      }
      ctx.lineWidth = 2;
      ctx.stroke();
    }

    // the selected agent
    if (sel >= 0) {
      const cx = offX + selX * k;
      const cy = offY + selY * k;
      ctx.strokeStyle = '#ffffff';
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      ctx.arc(cx, cy, 7, 0, 2 * Math.PI);
      ctx.moveTo(cx - 12, cy); ctx.lineTo(cx - 8, cy);
      ctx.moveTo(cx + 8, cy); ctx.lineTo(cx + 12, cy);
      ctx.moveTo(cx, cy - 12); ctx.lineTo(cx, cy - 8);
      ctx.moveTo(cx, cy + 8); ctx.lineTo(cx, cy + 12);
      ctx.stroke();
    }

    lastFrame = buf;
    body.dataset.agentPixels = String(count);
    drawMs = drawMs ? drawMs * 0.9 + (performance.now() - t0) * 0.1 : performance.now() - t0;
    if (!fresh) return;
    frames++;
    body.dataset.frames = String(frames);
    fpsCount++;
    const now = performance.now();
    if (now - fpsStart >= 1000) {
      viewerFps = fpsCount * 1000 / (now - fpsStart);
      fpsCount = 0;
      fpsStart = now;
    }
    paused = (flags & 1) !== 0;
    speed = spd;
    followSelection(sel, now);
    if (now - panelAt >= 250 || frames <= 2) {
      panelAt = now;
      updatePanel(dv, S, n, running, tick, tps, tickMs, buf.byteLength);
    }
  }

  function updatePanel(dv, S, n, running, tick, tps, tickMs, bytes) {
    $('tick').textContent = tick.toLocaleString('en');
    const secs = tick * (meta.dt || 0);
    const m = Math.floor(secs / 60);
    $('simtime').textContent = m + ':' + String(Math.floor(secs % 60)).padStart(2, '0');
    $('tps').textContent = paused ? 'paused' : tps.toFixed(1);
    $('tickms').textContent = tickMs.toFixed(2);
    $('agents').textContent = running.toLocaleString('en') + ' running of ' + n.toLocaleString('en');
    $('frameinfo').textContent = (bytes / 1024).toFixed(0) + ' KB, ' + viewerFps.toFixed(1) + ' fps'
      + (drawMs >= 0.05 ? ', draw ' + drawMs.toFixed(1) + ' ms' : '');
    for (let s = 0; s < S && s < legendRows.length; s++) {
      const c = dv.getUint32(HEADER + 4 * s, true);
      const row = legendRows[s];
      row.count.textContent = c ? c.toLocaleString('en') : '';
      row.pct.textContent = c ? (100 * c / Math.max(1, running)).toFixed(1) + '%' : '';
      row.tr.style.opacity = c || !meta.states[s].leaf ? '1' : '0.55';
    }
    syncControls();
  }

  // ---- controls ---------------------------------------------------------------------------------

  function syncControls() {
    playBtn.textContent = paused ? 'Play' : 'Pause';
    const v = String(Math.round(speed * 1000) / 1000);
    if (document.activeElement !== speedSel && speedSel.value !== v) {
      if (![...speedSel.options].some(o => o.value === v)) {
        const opt = document.createElement('option');
        opt.value = v;
        opt.textContent = v + '×';
        speedSel.appendChild(opt);
      }
      speedSel.value = v;
    }
  }

  function control(what) {
    return api('control', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: what,
    })
      .then(r => r.json())
      .then(j => {
        if (j.error) throw new Error(j.error);
        paused = j.paused;
        speed = j.speed;
        syncControls();
      })
      .catch(e => showError('control failed: ' + e.message));
  }

  playBtn.addEventListener('click', () => control(paused ? 'play' : 'pause'));
  speedSel.addEventListener('change', () => { control('speed=' + speedSel.value); speedSel.blur(); });
  document.addEventListener('keydown', e => {
    if (e.target instanceof HTMLSelectElement) return;
    if (e.key === ' ') {
      e.preventDefault();
      control(paused ? 'play' : 'pause');
    } else if (e.key === 'Escape') {
      deselect();
    }
  });

  // ---- the agent inspector ----------------------------------------------------------------------

  canvas.addEventListener('click', ev => {
    if (!meta || !mapSize) return;
    const r = canvas.getBoundingClientRect();
    const mx = (ev.clientX - r.left) * canvas.width / r.width - offX;
    const my = (ev.clientY - r.top) * canvas.height / r.height - offY;
    if (mx < 0 || my < 0 || mx >= mapSize || my >= mapSize) return;
    const wx = mx / mapSize * meta.worldSize;
    const wy = my / mapSize * meta.worldSize;
    selectionAt = performance.now();
    // selecting changes what every viewer sees: a POST (of this page's origin); polling is a GET
    loadAgent('agent?x=' + wx.toFixed(2) + '&y=' + wy.toFixed(2), { method: 'POST' });
  });

  $('agent-close').addEventListener('click', deselect);

  function loadAgent(url, init) {
    return api(url, init)
      .then(r => r.json())
      .then(j => {
        if (j.error) throw new Error(j.error);
        showAgent(j);
        clearTimeout(agentTimer);
        agentTimer = setTimeout(() => { if (selected === j.id) loadAgent('agent?id=' + j.id); }, 500);
      })
      .catch(e => {
        showError('agent: ' + e.message);
        selectionAt = performance.now();
        hideAgent();
      });
  }

  // The server traces one agent for all viewers: show the one another viewer selected, hide the
  // inspector when it was deselected elsewhere (ignoring frames older than our own last change).
  function followSelection(sel, now) {
    if (sel === selected || adopting || now - selectionAt < 2000) return;
    if (sel >= 0) {
      adopting = true;
      loadAgent('agent?id=' + sel).finally(() => { adopting = false; });
    } else {
      hideAgent();
    }
  }

  function showAgent(j) {
    selected = j.id;
    $('agent').hidden = false;
    $('click-hint').hidden = true;
    $('agent-id').textContent = '#' + j.id;
    const path = $('agent-path');
    path.textContent = '';
    if (j.state >= 0 && meta.states[j.state]) {
      const sw = document.createElement('span');
      sw.className = 'swatch';
      sw.style.background = meta.states[j.state].color;
      sw.style.marginRight = '6px';
      path.appendChild(sw);
    }
    path.appendChild(document.createTextNode(j.path || '(no active state)'));
    const c = j.columns || {};
    const speed = c.vx !== undefined && c.vy !== undefined && c.vx !== null && c.vy !== null
      ? Math.hypot(c.vx, c.vy).toFixed(2) + ' m/s  ·  ' : '';
    $('agent-pos').textContent = 'x ' + j.x.toFixed(1) + '  y ' + j.y.toFixed(1) + '  ·  ' + speed
      + j.status + '  ·  ' + j.stateChanges + ' state changes';
    $('agent-columns').textContent = Object.keys(c).map(function (k) {
      const v = c[k];
      return k + ' ' + (v === null ? '-' : Number.isInteger(v) ? String(v) : v.toFixed(2));
    }).join('  ·  ');
    const pre = $('agent-trace');
    const atBottom = pre.scrollTop + pre.clientHeight >= pre.scrollHeight - 4;
    pre.textContent = '';
    if (!j.trace.length) pre.textContent = '(no trace lines since it was selected)';
    for (const line of j.trace) {
      const div = document.createElement('div');
      const sp = line.indexOf(' ');
      const tick = document.createElement('span');
      tick.className = 'tick';
      tick.textContent = line.slice(0, sp + 1);
      div.append(tick, line.slice(sp + 1));
      pre.appendChild(div);
    }
    if (atBottom) pre.scrollTop = pre.scrollHeight;
  }

  function hideAgent() {
    selected = -1;
    clearTimeout(agentTimer);
    $('agent').hidden = true;
    $('click-hint').hidden = false;
  }

  function deselect() {
    if (selected < 0) return;
    selectionAt = performance.now();
    hideAgent();
    control('deselect');
  }

  init();
})();
