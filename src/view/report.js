// The report page's behaviour. The data (see html_report.cpp) is one JSON
// block; each frame's calls stay a string of numbers until the frame is
// shown, and the call list draws only the rows in view, so traces with
// hundreds of thousands of calls stay responsive. Every string from the
// trace goes into the page as text, never as HTML.
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("report-data").textContent);
  const $ = (id) => document.getElementById(id);

  // ---- small helpers -------------------------------------------------------
  function el(tag, props, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(props || {})) {
      if (value === undefined || value === null) continue;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else if (key === "dataset") Object.assign(node.dataset, value);
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value);
    }
    for (const child of children) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : String(child));
    }
    return node;
  }
  const number = (n) => Number(n).toLocaleString("en-US");
  function duration(ns) {
    if (ns >= 1e9) return (ns / 1e9).toFixed(2) + " s";
    if (ns >= 1e6) return (ns / 1e6).toFixed(2) + " ms";
    if (ns >= 1e3) return (ns / 1e3).toFixed(1) + " \u00b5s";
    return ns + " ns";
  }
  function bytes(n) {
    const units = ["bytes", "KiB", "MiB", "GiB", "TiB"];
    let i = 0;
    while (n >= 1024 && i < units.length - 1) { n /= 1024; ++i; }
    return (i === 0 ? n : n.toFixed(n < 10 ? 2 : 1)) + " " + units[i];
  }
  function setValue(id, shown, raw) {
    const node = $(id);
    node.textContent = shown;
    node.dataset.value = String(raw);
  }
  function table(headers, rows) {
    const head = el("tr", null, ...headers.map((h) => el("th", { class: h.num ? "num" : null, text: h.text || h })));
    return el("table", { class: "list" }, el("thead", null, head), el("tbody", null, ...rows));
  }
  const callName = (fn, text) => data.functions[fn] + data.texts[text];
  const callLink = (seq) => el("a", { href: "#call=" + seq, text: "#" + seq });
  const frameLink = (frame) => el("a", { href: "#frame=" + frame, text: String(frame) });

  // ---- frames and their calls ----------------------------------------------
  // data.frames[f] = [first sequence (-1: no calls), calls, draws, cpu ns, start ns, errors, upload bytes]
  const frames = data.frames;
  const FIRST_SEQ = 0, CALLS = 1, DRAWS = 2, CPU = 3, START = 4, ERRORS = 5, UPLOADS = 6;
  const framesWithCalls = frames.map((f, i) => i).filter((i) => frames[i][CALLS] > 0);
  const images = new Map(data.images.map((image) => [image.frame, image]));
  const threads = data.threads;

  const DRAW = 1, UNCOVERED = 2, SYNTHESIZED = 4, ERROR = 8, UPLOAD = 16, UNTIMED = 32;
  const cache = new Map();
  // One frame's calls as columns. Sequence numbers and start times arrive as
  // deltas from the previous call (html_report.cpp: FrameCalls).
  function frameCalls(frame) {
    if (cache.has(frame)) return cache.get(frame);
    const raw = JSON.parse("[" + data.frame_calls[frame] + "]");
    const per = data.numbers_per_call, n = raw.length / per;
    const calls = {
      length: n, seq: new Float64Array(n), thread: new Uint32Array(n), ctx: new Uint32Array(n),
      fn: new Uint32Array(n), text: new Uint32Array(n), start: new Float64Array(n), dur: new Float64Array(n),
      flags: new Uint8Array(n),
    };
    let seq = frames[frame][FIRST_SEQ], start = frames[frame][START];
    for (let i = 0, at = 0; i < n; ++i, at += per) {
      seq += raw[at]; start += raw[at + 5];
      calls.seq[i] = seq; calls.thread[i] = raw[at + 1]; calls.ctx[i] = raw[at + 2]; calls.fn[i] = raw[at + 3];
      calls.text[i] = raw[at + 4]; calls.start[i] = start; calls.dur[i] = raw[at + 6]; calls.flags[i] = raw[at + 7];
    }
    if (cache.size >= 8) cache.delete(cache.keys().next().value);
    cache.set(frame, calls);
    return calls;
  }
  function frameOfSequence(seq) {
    let lo = 0, hi = framesWithCalls.length - 1, found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (frames[framesWithCalls[mid]][FIRST_SEQ] <= seq) { found = framesWithCalls[mid]; lo = mid + 1; } else hi = mid - 1;
    }
    return found;
  }

  // ---- tabs and links ------------------------------------------------------
  let currentTab = "overview";
  function showTab(name) {
    currentTab = name;
    for (const section of document.querySelectorAll("section.tab")) section.hidden = section.id !== "tab-" + name;
    for (const button of document.querySelectorAll("nav#tabs button")) {
      button.classList.toggle("active", button.dataset.tab === name);
    }
    if (name === "overview") drawChart();
    if (name === "frame") renderRows();
  }
  for (const button of document.querySelectorAll("nav#tabs button")) {
    button.addEventListener("click", () => navigate("#tab=" + button.dataset.tab));
  }
  // "#frame=N", "#call=SEQ", "#shader=I", "#tab=NAME"
  function navigate(hash, fromHistory) {
    const match = /^#(frame|call|shader|tab)=(.+)$/.exec(hash || "");
    if (!match) return;
    const [, kind, value] = match;
    if (kind === "tab") showTab(value);
    else if (kind === "frame") openFrame(Number(value));
    else if (kind === "call") openCall(Number(value));
    else if (kind === "shader") openShader(Number(value));
    if (!fromHistory && location.hash !== hash) history.replaceState(null, "", hash);
  }
  document.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest('a[href^="#"]');
    if (!link) return;
    event.preventDefault();
    navigate(link.getAttribute("href"));
  });
  window.addEventListener("hashchange", () => navigate(location.hash, true));

  // ---- overview ------------------------------------------------------------
  function renderHeader() {
    const t = data.trace;
    $("title-program").textContent = t.program || "(unknown program)";
    $("title-detail").textContent = "pid " + t.pid + " \u00b7 " + t.path;
    const totals = data.totals;
    setValue("total-calls", number(totals.calls), totals.calls);
    setValue("total-frames", number(totals.frames), totals.frames);
    setValue("total-draws", number(totals.draws), totals.draws);
    setValue("total-cpu", duration(totals.cpu_ns), totals.cpu_ns);
    setValue("total-uploads", bytes(totals.upload_bytes), totals.upload_bytes);
    setValue("total-errors", number(totals.errors), totals.errors);
    if (totals.errors > 0) {
      $("errors-badge").hidden = false;
      $("errors-badge").textContent = number(totals.errors);
      $("total-errors").classList.add("bad");
    }
    const info = $("trace-info");
    const row = (label, ...value) => info.append(el("tr", null, el("th", { text: label }), el("td", null, ...value)));
    row("program", t.program);
    row("pid", String(t.pid));
    row("command line", el("code", { text: t.command_line }));
    if (t.extra.driver) row("driver", el("code", { text: t.extra.driver }));
    if (t.start_time_unix_ns) {
      const date = new Date(t.start_time_unix_ns / 1e6);
      row("started", date.toISOString().replace("T", " ").replace(/\.\d+Z$/, " UTC") + " (" + date.toLocaleString() + " here)");
    }
    for (const context of data.contexts) {
      row("context " + context.id, context.strings.map(([key, value]) => key + ": " + value).join(" \u00b7 "));
    }
    row("threads", threads.length + " (" + threads.join(", ") + ")");
    row("uploads", bytes(totals.upload_bytes) + " sent to the driver, of which " + bytes(totals.app_memory_bytes) +
        " app memory (client-side arrays, mapped-buffer writes)");
    row("trace file", t.path + " \u00b7 " + bytes(t.file_bytes) + (t.complete ? "" : " \u00b7 no index (tracing did not finish cleanly)"));
    // The trace as a program to hand on (docs/export.md): one rendering thread's calls only.
    row("as a C program", threads.length === 1
      ? el("code", { class: "command", text: "strata export --format c " + t.path + " -o " +
          t.path.replace(/^.*\//, "").replace(/\.[^.]*$/, "") + "-c" })
      : "not for a trace of several threads (strata export --format c replays one thread's calls)");
    for (const [key, value] of Object.entries(t.extra)) if (key !== "driver") row(key, value);
  }

  function renderBanners() {
    const box = $("banners");
    if (data.warning) {
      box.append(el("div", { class: "banner", id: "truncation-warning" },
        el("strong", { text: "This trace ends early. " }), data.warning,
        ". The report shows everything recorded before that point."));
    }
    if (data.totals.undecodable_records > 0) {
      box.append(el("div", { class: "banner error" }, number(data.totals.undecodable_records) +
        " call records could not be decoded and are missing from the call lists (first: " + data.first_undecodable + ")."));
    }
  }

  // The per-frame bar chart: one bar per frame, or per pixel column (the
  // largest frame in it) when there are more frames than pixels.
  let chartLayout = null;
  function chartValue(frame, metric) {
    const f = frames[frame];
    if (metric === "gpu") return data.gpu ? data.gpu.frame_ns[frame] : 0;
    return metric === "calls" ? f[CALLS] : metric === "draws" ? f[DRAWS] : f[CPU];
  }
  function drawChart() {
    const canvas = $("frame-chart");
    const width = canvas.clientWidth;
    if (!width) return;
    const ratio = window.devicePixelRatio || 1, height = 150;
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
    const g = canvas.getContext("2d");
    g.setTransform(ratio, 0, 0, ratio, 0, 0);
    g.clearRect(0, 0, width, height);
    const metric = $("chart-metric").value, n = frames.length;
    const columns = Math.min(n, Math.floor(width));
    let max = 0;
    for (let f = 0; f < n; ++f) max = Math.max(max, chartValue(f, metric));
    const barWidth = width / columns, top = 14, usable = height - top - 2;
    for (let c = 0; c < columns; ++c) {
      const from = Math.floor(c * n / columns), to = Math.max(from + 1, Math.floor((c + 1) * n / columns));
      let value = 0, errors = 0, selected = false;
      for (let f = from; f < to; ++f) {
        value = Math.max(value, chartValue(f, metric));
        errors += frames[f][ERRORS];
        selected = selected || f === view.frame;
      }
      const h = max ? Math.max(value ? 1 : 0, value / max * usable) : 0;
      g.fillStyle = selected ? "#f0a500" : errors ? "#c62828" : "#2f6fde";
      g.fillRect(c * barWidth + (barWidth > 3 ? 0.5 : 0), height - 2 - h, Math.max(1, barWidth - (barWidth > 3 ? 1 : 0)), h);
    }
    g.fillStyle = "#6b7385";
    g.font = "11px system-ui, sans-serif";
    g.fillText("max " + (metric === "cpu" || metric === "gpu" ? duration(max) : number(max)), 4, 10);
    chartLayout = { width, columns, n };
  }
  function chartFrameAt(event) {
    if (!chartLayout) return -1;
    const x = event.clientX - $("frame-chart").getBoundingClientRect().left;
    const column = Math.min(chartLayout.columns - 1, Math.max(0, Math.floor(x / chartLayout.width * chartLayout.columns)));
    return Math.floor(column * chartLayout.n / chartLayout.columns);
  }
  function frameSummary(frame) {
    const f = frames[frame];
    return number(f[CALLS]) + " calls \u00b7 " + number(f[DRAWS]) + " draws \u00b7 " + duration(f[CPU]) + " in GL/EGL" +
      (data.gpu ? " \u00b7 " + duration(data.gpu.frame_ns[frame]) + " on the GPU" : "") +
      (f[ERRORS] ? " \u00b7 " + number(f[ERRORS]) + " errors" : "") + (f[UPLOADS] ? " \u00b7 " + bytes(f[UPLOADS]) + " uploaded" : "");
  }
  $("frame-chart").addEventListener("click", (event) => { const f = chartFrameAt(event); if (f >= 0) navigate("#frame=" + f); });
  $("frame-chart").addEventListener("mousemove", (event) => {
    const f = chartFrameAt(event);
    $("chart-hover").textContent = f >= 0 ? "frame " + f + ": " + frameSummary(f) : "";
  });
  $("chart-metric").addEventListener("change", drawChart);
  window.addEventListener("resize", () => { if (currentTab === "overview") drawChart(); else renderRows(); });

  function renderThumbnails() {
    const box = $("thumbnails"), note = $("thumbnail-note");
    if (data.images.length === 0) {
      note.textContent = !data.image_source
        ? "none: images were not asked for (strata view --thumbnails none)"
        : data.totals.framebuffer_images === 0
          ? "none: the trace holds no framebuffer images (record with: strata trace --capture swap ...)"
          : "none could be shown";
      return;
    }
    note.textContent = data.image_source + (data.images.length < frames.length
      ? " \u00b7 " + number(data.images.length) + " of " + number(frames.length) + " frames" : "");
    for (const image of data.images) {
      box.append(el("figure", { class: "thumb", dataset: { frame: image.frame }, title: "open frame " + image.frame,
        onclick: () => navigate("#frame=" + image.frame) },
        el("img", { src: image.src, width: image.width, height: image.height, alt: "frame " + image.frame, loading: "lazy" }),
        el("figcaption", null, "frame " + image.frame + " \u00b7 " + number(frames[image.frame][CALLS]) + " calls \u00b7 " +
          number(frames[image.frame][DRAWS]) + " draws")));
    }
  }

  // ---- GPU times (strata view --gpu-times) ----------------------------------
  // data.gpu = { renderer, loops, frame_ns: [per frame], calls: ["seq,ns,seq,ns..." per frame] } or null
  const gpuCache = new Map();
  function frameGpuTimes(frame) {
    if (!data.gpu) return new Map();
    if (!gpuCache.has(frame)) {
      const raw = data.gpu.calls[frame] ? JSON.parse("[" + data.gpu.calls[frame] + "]") : [];
      const times = new Map();
      for (let i = 0; i + 1 < raw.length; i += 2) times.set(raw[i], raw[i + 1]);
      gpuCache.set(frame, times);
    }
    return gpuCache.get(frame);
  }
  if (data.gpu) {
    $("chart-metric").append(el("option", { value: "gpu", text: "GPU time (replayed)" }));
  }
  // The frame's slowest calls on the GPU, under its image.
  function renderSlowest(frame) {
    const box = $("frame-gpu");
    box.replaceChildren();
    if (!data.gpu) return;
    const times = [...frameGpuTimes(frame).entries()].sort((a, b) => b[1] - a[1]).slice(0, 10);
    box.append(el("div", { class: "gpu-head" }, el("strong", { text: "Slowest on the GPU" }),
      " " + duration(data.gpu.frame_ns[frame]) + " in all \u00b7 replayed on " + data.gpu.renderer +
      (data.gpu.loops > 1 ? " (median of " + data.gpu.loops + " loops)" : "")));
    if (times.length === 0) {
      box.append(el("div", { class: "muted", text: "No call of this frame was timed." }));
      return;
    }
    const calls = view.calls;
    const textOf = (seq) => {
      let lo = 0, hi = calls.length - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        if (calls.seq[mid] === seq) return callName(calls.fn[mid], calls.text[mid]);
        if (calls.seq[mid] < seq) lo = mid + 1; else hi = mid - 1;
      }
      return "";
    };
    box.append(table([{ text: "GPU", num: true }, "call"], times.map(([seq, ns]) => el("tr", { class: "gpu-row" },
      el("td", { class: "num", text: duration(ns) }), el("td", { class: "call-text" }, callLink(seq), " " + textOf(seq))))));
  }

  // ---- the frame view and its call list ------------------------------------
  const ROW = 22;              // px, as .call-row in report.css
  const MAX_SPACER = 8000000;  // px: browsers cap element heights; longer lists scroll proportionally
  const view = { frame: -1, calls: null, rows: new Uint32Array(0), selected: -1 };
  const list = $("call-list"), spacer = $("call-spacer"), rowsBox = $("call-rows");
  $("frame-count").textContent = String(frames.length);
  $("frame-number").max = String(frames.length - 1);

  function openFrame(frame, keepTab) {
    if (!Number.isInteger(frame) || frame < 0 || frame >= frames.length) return;
    if (!keepTab) showTab("frame");
    if (view.frame !== frame) {
      view.frame = frame;
      view.calls = frameCalls(frame);
      view.selected = -1;
      $("frame-number").value = String(frame);
      $("frame-summary").textContent = frameSummary(frame) +
        (frames[frame][CALLS] ? " \u00b7 calls #" + view.calls.seq[0] + "\u2013#" + view.calls.seq[view.calls.length - 1] : "");
      renderFrameImage(frame);
      renderSlowest(frame);
      for (const thumb of document.querySelectorAll(".thumb")) thumb.classList.toggle("selected", Number(thumb.dataset.frame) === frame);
      applyFilter();
      list.scrollTop = 0;
      renderDetail();
    }
    renderRows();
  }
  function renderFrameImage(frame) {
    const box = $("frame-image-box");
    box.replaceChildren();
    $("pixel-history").replaceChildren();
    const image = images.get(frame);
    if (image) {
      const scaled = image.source_width !== image.width;
      const img = el("img", { id: "frame-image", src: image.src, width: image.width, height: image.height, alt: "frame " + frame,
        title: "click a pixel for its history" });
      img.addEventListener("click", (event) => {
        const rect = img.getBoundingClientRect();
        const x = Math.min(image.source_width - 1, Math.floor((event.clientX - rect.left) / rect.width * image.source_width));
        const y = Math.min(image.source_height - 1, Math.floor((event.clientY - rect.top) / rect.height * image.source_height));
        showPixel(frame, Math.max(0, x), Math.max(0, y));
      });
      box.append(img, el("div", { class: "muted", style: "padding: 4px 0 0; max-width: none" },
          "frame " + frame + ", " + image.source_width + "\u00d7" + image.source_height + (scaled ? " (shown at " + image.width + "\u00d7" + image.height + ")" : "") +
          " \u00b7 click a pixel for its history"));
    } else {
      box.append(el("span", { class: "muted", text: data.images.length ? "No image of this frame in the report." : "No frame images in the report." }));
    }
    const histories = data.pixels.filter((p) => p.frame === frame);
    if (histories.length) {
      box.append(el("div", { class: "muted", style: "padding: 4px 0 0; max-width: none" }, "pixel histories: ",
        ...histories.map((p) => el("a", { href: "#", class: "pixel-link", text: p.x + "," + p.y + " ",
          onclick: (event) => { event.preventDefault(); event.stopPropagation(); showPixel(frame, p.x, p.y); } }))));
    }
  }

  // A pixel's history: from the report where --pixel made it, else the command that tells it.
  const colorText = (v) => v.color ? "(" + v.color.join(", ") + ")" + (v.depth !== undefined ? " depth " + v.depth : "") +
    (v.stencil !== undefined ? " stencil " + v.stencil : "") : "not read";
  function swatch(v) {
    if (!v.color || v.color_type !== "rgba8") return null;
    return el("span", { class: "swatch", style: "background: rgba(" + v.color[0] + "," + v.color[1] + "," + v.color[2] + "," + (v.color[3] / 255) + ")" });
  }
  function showPixel(frame, x, y) {
    const box = $("pixel-history");
    box.replaceChildren();
    const history = data.pixels.find((p) => p.frame === frame && p.x === x && p.y === y);
    const command = "strata pixel " + data.trace.path + " --frame " + frame + " --at " + x + "," + y;
    box.append(el("div", null, el("strong", { text: "pixel " + x + "," + y }), " of frame " + frame));
    if (!history) {
      box.append(el("div", { class: "muted", text: "Its history is not in this report; this command replays the trace for it " +
        "(or make the report with --pixel " + frame + ":" + x + "," + y + "):" }), el("pre", { class: "command", text: command }));
      return;
    }
    box.append(el("div", { class: "muted" }, "frame " + frame + " ends with " + colorText(history.final) + " ", swatch(history.final)));
    const outcome = (e) => e.outcome === "rejected" ? "rejected by the " + e.rejected_by + " test"
      : e.outcome === "passed" ? (e.changed ? "passed" : "passed, no change") : e.outcome;
    box.append(table(["call", "on", "before", "after", "outcome"], history.entries.map((e) => el("tr", { class: "pixel-row " + e.outcome },
      el("td", { class: "call-text" }, callLink(e.call), " " + e.text),
      el("td", null, e.target.image + (e.target.surface ? "" : " at " + e.target.x + "," + e.target.y) +
        (e.target.via ? " (" + e.target.via + (e.target.position === "assumed" ? ", position assumed" : "") + ")" : "")),
      el("td", null, swatch(e.before), " " + colorText(e.before)), el("td", null, swatch(e.after), " " + colorText(e.after)),
      el("td", { text: outcome(e) + (e.note ? " (" + e.note + ")" : "") })))));
    for (const note of history.notes) box.append(el("div", { class: "muted", text: note }));
  }
  function openCall(seq) {
    const frame = frameOfSequence(seq);
    if (frame < 0) return;
    openFrame(frame);
    const calls = view.calls;
    let lo = 0, hi = calls.length - 1, index = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (calls.seq[mid] === seq) { index = mid; break; }
      if (calls.seq[mid] < seq) lo = mid + 1; else hi = mid - 1;
    }
    if (index < 0) return;
    let position = rowPosition(index);
    if (position < 0) {  // filtered out: show everything again
      $("call-filter").value = "";
      $("draws-only").checked = false;
      applyFilter();
      position = rowPosition(index);
    }
    select(index);
    scrollToRow(position, true);
  }
  function rowPosition(index) {
    let lo = 0, hi = view.rows.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (view.rows[mid] === index) return mid;
      if (view.rows[mid] < index) lo = mid + 1; else hi = mid - 1;
    }
    return -1;
  }

  let filterTimer = 0;
  function applyFilter() {
    const calls = view.calls;
    if (!calls) return;
    const text = $("call-filter").value.trim(), drawsOnly = $("draws-only").checked;
    let test = null;
    $("call-filter").classList.remove("bad");
    if (text.length > 2 && text.startsWith("/") && text.endsWith("/")) {
      try {
        const pattern = new RegExp(text.slice(1, -1), "i");
        test = (line) => pattern.test(line);
      } catch (e) {
        $("call-filter").classList.add("bad");
        test = () => false;
      }
    } else if (text) {
      const needle = text.toLowerCase();
      test = (line) => line.toLowerCase().includes(needle);
    }
    const rows = new Uint32Array(calls.length);
    let count = 0;
    for (let i = 0; i < calls.length; ++i) {
      if (drawsOnly && !(calls.flags[i] & DRAW)) continue;
      if (test && !test(callName(calls.fn[i], calls.text[i]))) continue;
      rows[count++] = i;
    }
    view.rows = rows.subarray(0, count);
    $("call-count").textContent = count === calls.length ? number(count) + " calls" : number(count) + " of " + number(calls.length) + " calls";
    renderRows();
  }
  $("call-filter").addEventListener("input", () => { clearTimeout(filterTimer); filterTimer = setTimeout(applyFilter, 120); });
  $("draws-only").addEventListener("change", applyFilter);

  function layout() {
    const n = view.rows.length, viewHeight = list.clientHeight, fullHeight = n * ROW;
    const spacerHeight = Math.min(fullHeight, MAX_SPACER);
    const visible = Math.ceil(viewHeight / ROW) + 1;
    return { n, viewHeight, fullHeight, spacerHeight, visible, scaled: fullHeight > MAX_SPACER };
  }
  function scrollToRow(position, center) {
    const l = layout();
    if (!l.scaled) {
      const y = position * ROW;
      if (center) list.scrollTop = y - l.viewHeight / 2 + ROW / 2;
      else if (y < list.scrollTop) list.scrollTop = y;
      else if (y + ROW > list.scrollTop + l.viewHeight) list.scrollTop = y + ROW - l.viewHeight;
    } else {
      list.scrollTop = position / Math.max(1, l.n - l.visible + 1) * (l.spacerHeight - l.viewHeight);
    }
    renderRows();
  }
  const pool = [];
  function renderRows() {
    if (currentTab !== "frame" || !view.calls) return;
    const l = layout();
    spacer.style.height = l.spacerHeight + "px";
    let first, offset;
    if (!l.scaled) {
      first = Math.floor(list.scrollTop / ROW);
      offset = first * ROW;
    } else {
      const range = Math.max(1, l.spacerHeight - l.viewHeight);
      first = Math.round(list.scrollTop / range * Math.max(0, l.n - l.visible + 1));
      offset = list.scrollTop;
    }
    first = Math.max(0, Math.min(first, Math.max(0, l.n - 1)));
    const count = Math.max(0, Math.min(l.visible + 1, l.n - first));
    rowsBox.style.transform = "translateY(" + offset + "px)";
    while (pool.length < count) pool.push(makeRow());
    const calls = view.calls;
    for (let r = 0; r < count; ++r) {
      const index = view.rows[first + r], row = pool[r], flags = calls.flags[index];
      row.index = index;
      row.className = "call-row" + (flags & DRAW ? " draw" : "") + (flags & ERROR ? " error" : "") +
        (flags & UNCOVERED ? " uncovered" : "") + (flags & SYNTHESIZED ? " synthesized" : "") + (index === view.selected ? " selected" : "");
      row.cells[0].textContent = String(calls.seq[index]);
      row.cells[1].textContent = String(threads[calls.thread[index]]);
      row.cells[2].textContent = String(calls.ctx[index]);
      row.cells[3].firstChild.textContent = data.functions[calls.fn[index]];
      row.cells[3].lastChild.textContent = data.texts[calls.text[index]];
      row.cells[4].textContent = flags & UNTIMED ? "\u2013" : (calls.dur[index] / 1000).toFixed(1);
      row.title = callName(calls.fn[index], calls.text[index]);
    }
    rowsBox.replaceChildren(...pool.slice(0, count));
  }
  function makeRow() {
    const row = el("div", { class: "call-row" });
    const text = el("span", { class: "c-text" }, el("span", { class: "fn" }), el("span"));
    row.cells = [el("span", { class: "c-seq" }), el("span", { class: "c-thread" }), el("span", { class: "c-ctx" }), text,
      el("span", { class: "c-dur" })];
    row.append(...row.cells);
    row.addEventListener("click", () => select(row.index));
    return row;
  }
  list.addEventListener("scroll", renderRows, { passive: true });
  list.addEventListener("keydown", (event) => {
    if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
    event.preventDefault();
    let position = view.selected >= 0 ? rowPosition(view.selected) : -1;
    position = Math.max(0, Math.min(view.rows.length - 1, position + (event.key === "ArrowDown" ? 1 : -1)));
    if (view.rows.length) { select(view.rows[position]); scrollToRow(position, false); }
  });
  function select(index) {
    view.selected = index;
    if (index >= 0) history.replaceState(null, "", "#call=" + view.calls.seq[index]);
    renderDetail();
    renderRows();
  }
  function renderDetail() {
    const box = $("call-detail"), calls = view.calls, i = view.selected;
    box.replaceChildren();
    if (!calls || i < 0) return;
    const flags = calls.flags[i], marks = [];
    if (flags & DRAW) marks.push(el("span", { class: "flag draw", text: "draw" }));
    if (flags & ERROR) marks.push(el("span", { class: "flag error", text: "reported an error" }));
    if (flags & UPLOAD) marks.push(el("span", { class: "flag", text: "uploads data" }));
    if (flags & UNCOVERED) marks.push(el("span", { class: "flag", text: "some pointer data not captured" }));
    if (flags & SYNTHESIZED) marks.push(el("span", { class: "flag", text: "made up: recreates state from before the trace (a context traced mid-run, or a trim's snapshot)" }));
    box.append(el("div", null, el("strong", { text: "call #" + calls.seq[i] }), " in frame " + view.frame),
      el("pre", { text: callName(calls.fn[i], calls.text[i]) }),
      el("div", null, "thread " + threads[calls.thread[i]] + " \u00b7 context " + calls.ctx[i] + " \u00b7 started " +
        duration(calls.start[i]) + " into the trace \u00b7 " +
        (flags & UNTIMED ? "untimed (it only sets state)" : "took " + duration(calls.dur[i])) +
        (frameGpuTimes(view.frame).has(calls.seq[i]) ? " \u00b7 " + duration(frameGpuTimes(view.frame).get(calls.seq[i])) +
          " on the GPU (replayed on " + data.gpu.renderer + ")" : "")),
      el("div", { style: "margin-top: 6px" }, ...marks));
    // The GL state before this call, where the report was made with it (--state-frames).
    const state = data.states[calls.seq[i]];
    if (state) {
      const imageUrl = (text) => text.startsWith("state-image:") ? data.state_images[text.slice(12)] || null : null;
      const panel = el("details", { class: "state", open: "" }, el("summary", { text: "GL state before this call" }));
      panel.appendChild(StrataStateView.render(state, imageUrl));
      box.append(panel);
    } else if (Object.keys(data.states).length && (flags & DRAW)) {
      box.append(el("div", { class: "muted", text: "GL state: made for the draws of the frames given to --state-frames" }));
    }
  }
  $("frame-prev").addEventListener("click", () => navigate("#frame=" + Math.max(0, view.frame - 1)));
  $("frame-next").addEventListener("click", () => navigate("#frame=" + Math.min(frames.length - 1, view.frame + 1)));
  $("frame-number").addEventListener("change", () => navigate("#frame=" + Number($("frame-number").value)));
  document.addEventListener("keydown", (event) => {
    if (currentTab !== "frame" || event.target.tagName === "INPUT") return;
    if (event.key === "n") $("frame-next").click();
    if (event.key === "p") $("frame-prev").click();
  });

  // ---- errors, shaders, uploads --------------------------------------------
  function renderErrors() {
    const box = $("errors-table");
    if (data.errors.length === 0) {
      box.append(el("p", { id: "no-errors", text: "No glGetError or eglGetError call in this trace reported an error." }));
    } else {
      box.append(table(["call", "frame", "error", "after the call"], data.errors.map((e) => el("tr", { class: "error-row" },
        el("td", null, callLink(e.call.seq)), el("td", null, frameLink(e.call.frame)),
        el("td", { class: "bad", text: e.error }),
        el("td", { class: "call-text" }, e.follows ? callLink(e.follows.seq) : "(none before it on this thread)",
          e.follows ? " " + callName(e.follows.fn, e.follows.text) : "")))));
    }
    const uncovered = $("uncovered-table");
    if (data.uncovered.length === 0) {
      uncovered.append(el("p", { class: "muted", text: "None: every pointer argument's data was captured." }));
    } else {
      uncovered.append(el("p", { class: "muted", text: "These functions have pointer arguments without a capture rule " +
        "(strata info --coverage): their calls are recorded without that data, so a replay cannot repeat them exactly." }),
        table(["function", { text: "calls", num: true }, "first call"], data.uncovered.map((u) => el("tr", null,
          el("td", { text: data.functions[u.fn] }), el("td", { class: "num", text: number(u.calls) }),
          el("td", { class: "call-text" }, callLink(u.first.seq), " " + callName(u.first.fn, u.first.text))))));
    }
    const notes = $("notes"), t = data.totals;
    const note = (text) => notes.append(el("li", { text }));
    if (data.warning) note("The trace ends early: " + data.warning + ".");
    if (!data.trace.complete) note("The trace has no frame index: the traced program did not finish tracing cleanly.");
    if (t.undecodable_records) note(number(t.undecodable_records) + " call records could not be decoded: " + data.first_undecodable);
    if (t.synthesized_calls) note(number(t.synthesized_calls) + " calls were made up by the tracer for contexts that existed before tracing was switched on.");
    note(number(t.framebuffer_images) + " framebuffer images captured in the trace; " + bytes(t.record_bytes) + " of call records.");
  }

  // The file a shader's edited source is saved as, and the replay that uses it.
  const replacementFile = (kind, name, extension) => kind + "-" + name + (extension || ".glsl");
  const replaceCommand = (kind, name, extension) => "strata replay --replace-shader " + name + "=" +
    replacementFile(kind, name, extension) + " --verify " + data.trace.path;
  function renderShaders() {
    const programs = $("programs-table");
    const status = (value, yes, no) => value === null ? el("span", { class: "muted", text: "not asked" })
      : el("span", { class: value ? "ok" : "bad", text: value ? yes : no });
    if (data.programs.length === 0) {
      programs.append(el("p", { class: "muted", text: "No glLinkProgram or glCreateShaderProgramv in this trace." }));
    } else {
      programs.append(table(["program", "linked", "call", "frame", "shaders", "replay with a stage edited"], data.programs.map((p) => el("tr", null,
        el("td", { text: String(p.program) }), el("td", null, status(p.linked, "linked", "link failed")),
        el("td", null, callLink(p.call.seq)), el("td", null, frameLink(p.call.frame)),
        el("td", null, ...p.shaders.map((s) => el("span", null, el("a", { href: "#shader=" + s,
          text: data.shaders[s].type.replace(/^GL_|_SHADER$/g, "").toLowerCase() + " " + data.shaders[s].shader }), " ")),
          ...p.shaders_without_source.map((s) => el("span", { class: "muted", text: "shader " + s + " (no source in the trace) " }))),
        el("td", null, ...p.shaders.map((s) => el("code", { class: "command", text: "--replace-shader " + p.program + "=" +
          replacementFile("program", p.program, data.shaders[s].extension) }))),
        p.log ? el("td", { class: "call-text bad", text: p.log }) : null))));
    }
    const list = $("shader-list");
    if (data.shaders.length === 0) {
      list.append(el("p", { class: "muted", text: "No glShaderSource in this trace." }));
      return;
    }
    data.shaders.forEach((s, i) => {
      const details = el("details", { class: "shader", id: "shader-" + i },
        el("summary", null, el("strong", { text: s.type }), " " + (s.shader ? "shader " + s.shader : "(glCreateShaderProgramv)") + " \u00b7 ",
          callLink(s.call.seq), " in frame ", frameLink(s.call.frame), " \u00b7 ", status(s.compiled, "compiled", "did not compile")),
        el("pre", { class: "source", text: s.source }),
        s.log ? el("pre", { class: "log", text: s.log }) : null,
        s.shader ? el("div", { class: "muted" }, "Edit it: save the source as " + replacementFile("shader", s.shader, s.extension) +
          ", change it, and replay with it (--verify names the frames that change):") : null,
        s.shader ? el("pre", { class: "command", text: replaceCommand("shader", s.shader, s.extension) }) : null);
      if (data.shaders.length <= 24) details.open = true;
      list.append(details);
    });
  }
  function openShader(index) {
    const details = $("shader-" + index);
    if (!details) return;
    showTab("shaders");
    details.open = true;
    details.scrollIntoView({ block: "start" });
    details.classList.add("flash");
    setTimeout(() => details.classList.remove("flash"), 1200);
  }

  function renderUploads() {
    $("uploads-note").textContent = "Calls that sent the most data to the driver: buffer and texture uploads by their " +
      "data, mapped-buffer writes and client-side arrays by the app memory captured for them. In all: " +
      bytes(data.totals.upload_bytes) + ".";
    const box = $("uploads-table");
    if (data.uploads.length === 0) {
      box.append(el("p", { class: "muted", text: "No uploads in this trace." }));
      return;
    }
    box.append(table([{ text: "bytes", num: true }, "kind", "call", "frame", "function(arguments)"], data.uploads.map((u) =>
      el("tr", null, el("td", { class: "num", text: number(u.bytes), title: bytes(u.bytes) }), el("td", { text: u.kind }),
        el("td", null, callLink(u.call.seq)), el("td", null, frameLink(u.call.frame)),
        el("td", { class: "call-text", text: callName(u.call.fn, u.call.text) })))));
  }

  // ---- start ---------------------------------------------------------------
  renderHeader();
  renderBanners();
  renderThumbnails();
  renderErrors();
  renderShaders();
  renderUploads();
  openFrame(0, true);
  drawChart();
  if (location.hash) navigate(location.hash, true);
  document.body.dataset.ready = "true";
})();
