/* global window, document, MutationObserver */
// Injected into the page before the app (page.addInitScript). It measures, from inside Chromium, the time from an
// input event to the next painted frame, long tasks, and React commits seen through the DevTools global hook, which
// production builds of react-dom call too, so no app code is involved.
(() => {
  const PERFORMED_WORK = 1;
  const FUNCTION_COMPONENT = 0;
  const HOST_COMPONENT = 5;
  const bench = { timing: false, profiling: false, keys: [], clicks: [], keyWork: [], clickWork: [], longTasks: [], commits: 0, transcriptCommits: 0, root: null, lastTranscript: null, arrivals: {}, received: {}, shown: {} };
  window.__bench = bench;
  const epochNow = () => performance.timeOrigin + performance.now();

  // The epoch time each "Arrival …" question's frame reached the page's socket, by its text: a listener added as the socket
  // is made runs before any the page adds, so it stamps the frame as it is dispatched.
  const NativeSocket = window.WebSocket;
  const ARRIVAL = /"question":"(Arrival [^"]*)"/;
  window.WebSocket = class extends NativeSocket {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (event) => {
        if (typeof event.data !== "string" || !event.data.includes('"question/requested"')) return;
        const text = ARRIVAL.exec(event.data)?.[1];
        if (text !== undefined && bench.received[text] === undefined) bench.received[text] = epochNow();
      });
    }
  };

  // Whether the page is running an animation frame's callbacks. A change made there (the app applies streamed text in one)
  // is painted in that same frame, so the first task after it already follows the paint; a change made in any other task
  // is painted in the next frame. The page's own requestAnimationFrame is wrapped to know; the probe uses the browser's.
  const nativeFrame = window.requestAnimationFrame.bind(window);
  let inFrame = false;
  const frameDone = new MessageChannel();
  frameDone.port1.onmessage = () => (inFrame = false);
  window.requestAnimationFrame = (callback) =>
    nativeFrame((time) => {
      if (!inFrame) {
        inFrame = true;
        frameDone.port2.postMessage(null);
      }
      callback(time);
    });
  // Calls `then` with the epoch time (comparable with Node's on this machine) once the frame showing a change just made
  // (by the task or animation frame running now) has been painted.
  const afterChangePainted = (then) => {
    const stamp = () => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => then(epochNow());
      channel.port2.postMessage(null);
    };
    if (inFrame) stamp();
    else nativeFrame(stamp);
  };

  // Records, under `key`, the epoch time once the frame showing what just changed is painted.
  const seen = new Set();
  bench.painted = (key) => {
    if (seen.has(key)) return;
    seen.add(key);
    bench.shown[key] = epochNow();
    afterChangePainted((at) => (bench.arrivals[key] = at));
  };
  // While on, the question panel's heading showing an "Arrival …" question counts as that question arriving.
  let panelWatcher = null;
  window.__benchWatchPanel = (on) => {
    if (panelWatcher) panelWatcher.disconnect();
    panelWatcher = null;
    if (!on) return;
    panelWatcher = new MutationObserver(() => {
      const text = document.querySelector("[data-question-panel] h2")?.textContent ?? "";
      if (text.startsWith("Arrival ")) bench.painted(text);
    });
    panelWatcher.observe(document.body, { childList: true, subtree: true, characterData: true });
  };

  // While on, a chunk `tok<n>` of a streamed reply showing anywhere in the page counts chunks up to n as shown (they arrive in
  // order), and each of them gets the epoch time after the frame that painted it; `streamPaints[n]` holds it.
  const CHUNK = /\btok(\d+)\b/g;
  const highestChunk = (text, highest) => {
    for (const match of text.matchAll(CHUNK)) highest = Math.max(highest, Number(match[1]));
    return highest;
  };
  let streamWatcher = null;
  bench.streamPaints = [];
  window.__benchWatchStream = (on) => {
    if (streamWatcher) streamWatcher.disconnect();
    streamWatcher = null;
    if (!on) return;
    bench.streamPaints = [];
    let shown = -1;
    streamWatcher = new MutationObserver((records) => {
      let highest = shown;
      for (const record of records) {
        if (record.type === "characterData") highest = highestChunk(record.target.data, highest);
        else for (const node of record.addedNodes) highest = highestChunk(node.textContent ?? "", highest);
      }
      if (highest <= shown) return;
      const from = shown + 1;
      shown = highest;
      afterChangePainted((at) => {
        for (let index = from; index <= highest; index++) bench.streamPaints[index] = at;
      });
    });
    streamWatcher.observe(document.body, { childList: true, subtree: true, characterData: true });
  };

  const afterNextPaint = (start, into) =>
    nativeFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => into.push(performance.now() - start);
      channel.port2.postMessage(null);
    });
  // The task that dispatched the event, React's synchronous commit included, has finished when this message arrives.
  const afterHandlers = (start, into) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => into.push(performance.now() - start);
    channel.port2.postMessage(null);
  };
  const measure = (event, paints, work) => {
    if (!bench.timing) return;
    afterNextPaint(event.timeStamp, paints);
    afterHandlers(performance.now(), work);
  };
  document.addEventListener("keydown", (event) => measure(event, bench.keys, bench.keyWork), true);
  document.addEventListener("click", (event) => measure(event, bench.clicks, bench.clickWork), true);
  new PerformanceObserver((list) => {
    if (bench.timing) for (const entry of list.getEntries()) bench.longTasks.push(entry.duration);
  }).observe({ type: "longtask" });

  const findTranscript = (root) => {
    const element = document.querySelector("section.transcript");
    if (!element) return null;
    const stack = [root.current];
    while (stack.length > 0) {
      const fiber = stack.pop();
      if (fiber.tag === HOST_COMPONENT && fiber.stateNode === element) {
        let owner = fiber.return;
        while (owner && owner.tag !== FUNCTION_COMPONENT) owner = owner.return;
        return owner;
      }
      if (fiber.sibling) stack.push(fiber.sibling);
      if (fiber.child) stack.push(fiber.child);
    }
    return null;
  };
  window.__benchStartProfiling = () => {
    bench.lastTranscript = bench.root ? findTranscript(bench.root) : null;
    bench.commits = 0;
    bench.transcriptCommits = 0;
    bench.profiling = true;
  };

  let renderers = 0;
  Object.defineProperty(window, "__REACT_DEVTOOLS_GLOBAL_HOOK__", {
    configurable: true,
    value: {
      supportsFiber: true,
      renderers: new Map(),
      inject: () => ++renderers,
      checkDCE: () => undefined,
      onScheduleFiberRoot: () => undefined,
      onCommitFiberUnmount: () => undefined,
      onPostCommitFiberRoot: () => undefined,
      onCommitFiberRoot: (_id, root) => {
        bench.root = root;
        if (!bench.profiling) return;
        bench.commits++;
        const transcript = findTranscript(root);
        // A fiber object that differs from the last commit's and carries PerformedWork ran its render in this commit.
        if (transcript && transcript !== bench.lastTranscript && (transcript.flags & PERFORMED_WORK) !== 0) bench.transcriptCommits++;
        bench.lastTranscript = transcript;
      },
    },
  });
})();
