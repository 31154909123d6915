/*
 * caterpillar-learn serve: the lesson page's whole front end (issue 40), in place of Voila's JupyterLab
 * application.  A lesson's outputs are anywidgets (widgets/*.js, one ES module each, all rules in Python),
 * so the page needs only what anywidget's front end does for one of them: the kernel's websocket, the
 * widget's state (ipywidgets' comm protocol, version 2), its ES module run with `render({model, el})`, and
 * trait changes both ways.  Voila's application (about 1,300 KiB of JupyterLab and ipywidgets' code) took
 * 12-19 s to become interactive on Lighthouse's mobile profile; this file is a few KiB (docs/PERFORMANCE.md).
 *
 * The protocol, as ipywidgets' kernel side (ipywidgets/widgets/widget.py) speaks it:
 *   page -> kernel  comm_msg {method: "request_state"}          the kernel answers with "update" (all traits)
 *   kernel -> page  comm_msg {method: "update", state}           traits the kernel changed
 *   kernel -> page  comm_msg {method: "echo_update", state}      the page's own change, echoed: ignored
 *   kernel -> page  comm_msg {method: "custom", content}         model.on("msg:custom")
 *   page -> kernel  comm_msg {method: "update", state}           model.save_changes()
 *   page -> kernel  comm_msg {method: "custom", content}         model.send(content)
 * Messages travel as JSON text frames (jupyter_server's websocket without a subprotocol); one with binary
 * buffers comes as a binary frame, its buffers put back into the state at their `buffer_paths`.
 *
 * What the page did is kept in window.__caterpillarLearnPage (tests and diagnosis read it).
 */
(function () {
  "use strict";
  var VIEW = "application/vnd.jupyter.widget-view+json";
  var RETRY_MS = 1000;
  var MAX_RETRY_MS = 10000;
  /** @type {{models: number, views: number, received: number, sent: number, reconnected: number, errors: string[], fullPage?: string}} */
  var page = { models: 0, views: 0, received: 0, sent: 0, reconnected: 0, errors: [] };
  /** @type {any} */ (window).__caterpillarLearnPage = page;

  function config() {
    var node = document.getElementById("jupyter-config-data");
    return JSON.parse((node && node.textContent) || "{}");
  }

  function uuid() {
    return crypto.randomUUID ? crypto.randomUUID() : String(Date.now()) + Math.random().toString(16).slice(2);
  }

  function failed(what, error) {
    page.errors.push(what + ": " + error);
    console.error("[caterpillar-learn] " + what, error);
  }

  // -- the kernel's websocket ------------------------------------------------------------------------

  /** A binary frame (jupyter_server's legacy format): [count, offsets...][JSON][buffers...]. */
  function unpack(data) {
    var view = new DataView(data);
    var count = view.getUint32(0);
    var offsets = [];
    for (var i = 1; i <= count; i += 1) offsets.push(view.getUint32(4 * i));
    var message = JSON.parse(new TextDecoder().decode(data.slice(offsets[0], offsets[1])));
    message.buffers = [];
    for (var j = 1; j < count; j += 1) message.buffers.push(new DataView(data.slice(offsets[j], offsets[j + 1])));
    return message;
  }

  function putBuffers(state, paths, buffers) {
    (paths || []).forEach(function (path, index) {
      var node = state;
      for (var i = 0; i < path.length - 1; i += 1) node = node[path[i]];
      node[path[path.length - 1]] = buffers[index];
    });
  }

  /**
   * The kernel's websocket.  A tablet that sleeps loses it: it is opened again (after 1 s, then up to 10 s
   * apart) and each model asks for its whole state again, as Voila's kernel connection reconnects; the
   * kernel kept the lesson.  What the page sends while it is closed waits in the outbox.
   */
  function Kernel(settings) {
    var base = settings.baseUrl || "/";
    var address = new URL(base + "api/kernels/" + encodeURIComponent(settings.kernelId) + "/channels", location.href);
    address.protocol = location.protocol === "https:" ? "wss:" : "ws:";
    this.session = uuid();
    address.searchParams.set("session_id", this.session);
    if (settings.token) address.searchParams.set("token", settings.token);
    this.address = address.href;
    this.comms = new Map(); // comm id -> function(data, buffers)
    this.reopened = new Set(); // functions called each time the socket opens again
    this.outbox = [];
    this.wait = RETRY_MS;
    this.closing = false; // the page is leaving (or reopening on Voila's whole page): no reconnect
    this.open(false);
  }

  Kernel.prototype.open = function (again) {
    var self = this;
    var socket = (this.socket = new WebSocket(this.address));
    socket.binaryType = "arraybuffer";
    socket.onopen = function () {
      self.wait = RETRY_MS;
      if (again) {
        page.reconnected += 1;
        self.reopened.forEach(function (callback) {
          callback();
        });
      }
      self.outbox.splice(0).forEach(function (text) {
        socket.send(text);
      });
    };
    socket.onclose = function () {
      if (self.closing) return;
      setTimeout(function () {
        self.open(true);
      }, self.wait);
      self.wait = Math.min(2 * self.wait, MAX_RETRY_MS);
    };
    socket.onmessage = function (event) {
      var message = typeof event.data === "string" ? JSON.parse(event.data) : unpack(event.data);
      var type = message.header && message.header.msg_type;
      if (type !== "comm_msg" || message.channel !== "iopub") return;
      var handler = self.comms.get(message.content.comm_id);
      if (handler) {
        page.received += 1;
        handler(message.content.data, message.buffers || []);
      }
    };
  };

  Kernel.prototype.commMessage = function (commId, data) {
    var message = {
      header: {
        msg_id: uuid(),
        msg_type: "comm_msg",
        username: "",
        session: this.session,
        date: new Date().toISOString(),
        version: "5.3",
      },
      parent_header: {},
      metadata: {},
      content: { comm_id: commId, data: data },
      channel: "shell",
      buffers: [],
    };
    var text = JSON.stringify(message);
    page.sent += 1;
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(text);
    else this.outbox.push(text);
  };

  // -- a widget's model, as anywidget hands it to render() -----------------------------------------------

  function Model(kernel, commId) {
    this.state = {};
    this.dirty = {};
    this.listeners = new Map();
    this.kernel = kernel;
    this.commId = commId;
  }

  Model.prototype.get = function (name) {
    return this.state[name];
  };
  Model.prototype.set = function (name, value) {
    this.state[name] = value;
    this.dirty[name] = value;
    this.emit("change:" + name, [this, value]);
  };
  Model.prototype.save_changes = function () {
    var changed = this.dirty;
    this.dirty = {};
    if (Object.keys(changed).length) this.kernel.commMessage(this.commId, { method: "update", state: changed, buffer_paths: [] });
  };
  Model.prototype.send = function (content) {
    this.kernel.commMessage(this.commId, { method: "custom", content: content });
  };
  Model.prototype.on = function (event, callback) {
    if (!this.listeners.has(event)) this.listeners.set(event, []);
    this.listeners.get(event).push(callback);
  };
  Model.prototype.off = function (event, callback) {
    if (!event) this.listeners.clear();
    else if (!callback) this.listeners.delete(event);
    else this.listeners.set(event, (this.listeners.get(event) || []).filter((known) => known !== callback));
  };
  Model.prototype.emit = function (event, args) {
    (this.listeners.get(event) || []).slice().forEach((callback) => {
      try {
        callback.apply(this, args);
      } catch (error) {
        failed(event, error);
      }
    });
  };
  /** A change from the kernel: every trait first, then one event per trait (as Backbone's set does). */
  Model.prototype.receive = function (data, buffers) {
    if (data.method === "custom") {
      this.emit("msg:custom", [data.content, buffers]);
      return;
    }
    if (data.method !== "update") return; // "echo_update": the page's own change, already here
    var state = data.state || {};
    putBuffers(state, data.buffer_paths, buffers);
    Object.assign(this.state, state);
    Object.keys(state).forEach((name) => this.emit("change:" + name, [this, state[name]]));
    this.emit("change", [this]);
  };

  /** The model of `commId` once the kernel has sent its whole state (an answer to "request_state"). */
  function restore(kernel, commId) {
    var model = new Model(kernel, commId);
    var ask = function () {
      kernel.commMessage(commId, { method: "request_state" });
    };
    return new Promise(function (resolve) {
      kernel.comms.set(commId, function (data, buffers) {
        model.receive(data, buffers);
        if (model.state._model_name !== undefined) {
          kernel.comms.set(commId, model.receive.bind(model));
          kernel.reopened.add(ask); // back from a lost connection: the whole state again
          page.models += 1;
          resolve(model);
        }
      });
      ask();
    });
  }

  // -- the widget's ES module and its view ----------------------------------------------------------------

  async function widgetModule(model) {
    var url = URL.createObjectURL(new Blob([model.get("_esm")], { type: "text/javascript" }));
    try {
      var loaded = await import(url);
      var widget = loaded.default || loaded;
      return typeof widget === "function" ? await widget() : widget;
    } finally {
      URL.revokeObjectURL(url);
    }
  }

  function addStyle(model) {
    var css = model.get("_css");
    var id = "anywidget-" + (model.get("_anywidget_id") || model.commId);
    if (!css || document.getElementById(id)) return;
    var style = document.createElement("style");
    style.id = id;
    style.textContent = css;
    document.head.appendChild(style);
  }

  /** The view of `view.model_id` in `el`; a model that is not an anywidget goes to `other` instead. */
  async function show(kernel, view, el, other) {
    var model = await restore(kernel, view.model_id);
    if (typeof model.get("_esm") !== "string") {
      other(model);
      return;
    }
    addStyle(model);
    var widget = await widgetModule(model);
    if (widget.initialize) await widget.initialize({ model: model });
    await widget.render({ model: model, el: el });
    page.views += 1;
  }

  // -- the page ---------------------------------------------------------------------------------------

  /** Each cell output Voila wrote into the page, as Voila's own page reads them. */
  function outputs() {
    return Array.from(document.querySelectorAll('script[type="application/vnd.voila.cell-output+json"]')).map(
      function (node) {
        return { node: node, output: JSON.parse(node.textContent || "{}") };
      },
    );
  }

  /** Whether this page can show an output: an anywidget's view (its model is checked once it comes), text. */
  function isLight(output) {
    var data = output.data || {};
    return Boolean(data[VIEW]) || output.output_type === "stream" || Object.keys(data).join() === "text/plain";
  }

  function xsrf() {
    var found = document.cookie.match("\\b_xsrf=([^;]*)\\b");
    return (found && found[1]) || "";
  }

  function shutdownUrl(settings) {
    return (settings.baseUrl || "/") + "voila/api/shutdown/" + encodeURIComponent(settings.kernelId);
  }

  /**
   * A notebook this page cannot show (a teacher's own, with ipywidgets' controls, a picture, HTML) opens
   * again as Voila's whole page (the template named in the page's settings): this page's kernel is stopped
   * first, so that a full class does not count it twice.
   */
  function fullPage(settings, kernel, why) {
    if (page.fullPage) return;
    page.fullPage = why;
    if (kernel) {
      kernel.closing = true;
      kernel.socket.close();
    }
    var data = new FormData();
    data.append("_xsrf", xsrf());
    var address = new URL(location.href);
    address.searchParams.set("template", settings.fullTemplate);
    fetch(shutdownUrl(settings), { method: "POST", body: data, credentials: "same-origin" })
      .catch(function () {})
      .then(function () {
        location.replace(address.href);
      });
  }

  function goodbye(settings, kernel) {
    // As Voila's own page does: the server stops the kernel of a page that closes or reloads (its _xsrf
    // cookie says the page is ours); a tablet that only sleeps sends nothing and keeps its lesson.
    window.addEventListener("beforeunload", function () {
      if (kernel.closing) return;
      kernel.closing = true;
      var data = new FormData();
      data.append("_xsrf", xsrf());
      navigator.sendBeacon(shutdownUrl(settings), data);
    });
    // Back to this page from the browser's cache after its goodbye: its kernel is gone, the page starts again.
    window.addEventListener("pageshow", function (event) {
      if (event.persisted && kernel.closing) location.reload();
    });
  }

  function start() {
    var settings = Object.assign(config(), JSON.parse(document.getElementById("caterpillar-learn-page").textContent));
    if (!settings.kernelId) return;
    var found = outputs();
    var other = found.filter(function (item) {
      return !isLight(item.output);
    });
    if (other.length) {
      fullPage(settings, null, "an output of " + Object.keys(other[0].output.data || {}).join(", "));
      return;
    }
    var kernel = new Kernel(settings);
    goodbye(settings, kernel);
    found.forEach(function (item) {
      var output = item.output;
      var data = output.data || {};
      // Classes as Voila's own output areas have them (widgets' styles and tests find outputs by them).
      var el = document.createElement(data[VIEW] ? "div" : "pre");
      el.className = "jp-OutputArea-output";
      item.node.replaceWith(el);
      if (!data[VIEW]) {
        el.setAttribute("data-mime-type", "text/plain");
        el.textContent = output.text || data["text/plain"] || "";
        return;
      }
      show(kernel, data[VIEW], el, function (model) {
        fullPage(settings, kernel, "a widget " + model.get("_model_name"));
      }).catch(function (error) {
        failed("widget " + data[VIEW].model_id, error);
      });
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
