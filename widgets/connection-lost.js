// Every classroom page loads this script (caterpillar_learn/classroom/lifetime.py writes it into the server's
// static folder, after a first line that sets `window.caterpillarLearnConnectionLost` to its words, its style
// and how often to ask again).  On a lost websocket it shows the words at the top of the page, then asks the
// server with HEAD on the page's own address until any answer comes (even "method not allowed": the server is
// back, and no session is made), and reloads the page.  It waits for the page's Bokeh document first.
(() => {
  /** @type {{words: string, style: string, retry: number}} */
  const config = /** @type {any} */ (window).caterpillarLearnConnectionLost;
  const lost = () => {
    if (document.querySelector('[data-testid="connection-lost"]')) return;
    const notice = document.createElement("div");
    // ours: a notice on the page's body, outside every widget
    notice.setAttribute("data-testid", "connection-lost");
    notice.setAttribute("role", "alert");
    notice.setAttribute("style", config.style);
    notice.textContent = config.words;
    document.body.appendChild(notice);
    const again = () => fetch(window.location.pathname, { method: "HEAD", cache: "no-store" })
      .then(() => window.location.reload(), () => setTimeout(again, config.retry));
    setTimeout(again, config.retry);
  };
  const follow = () => {
    const bokeh = /** @type {any} */ (window).Bokeh;
    const docs = (bokeh && bokeh.documents) || [];
    if (!docs.length) { setTimeout(follow, 100); return; }
    docs.forEach((/** @type {any} */ doc) => doc.on_event("connection_lost", lost));
  };
  follow();
})();
