/*
 * caterpillar-learn serve: a Voila-only front-end plugin, written by hand as a federated extension
 * container (window._JUPYTERLAB[name] with init() and get()): it imports nothing, so it needs no build.
 * It is installed where Voila alone looks for front-end extensions (share/jupyter/voila/labextensions, from
 * the package's share/ folder), and serve.voila_argv() also names the package's copy
 * (VoilaConfiguration.extra_labextensions_path); JupyterLab never loads it.  It mends two races that
 * lose a lesson's board when the page's browser is slow (30
 * pages opening at once on a 2-core server: benchmarks/voila_class.py, docs/PERFORMANCE.md).
 *
 * 1. "Error displaying widget: model not found".  Voila renders the notebook's outputs as soon as the
 *    app has started, while the widget manager may still be restoring the kernel's widgets.  A widget
 *    output whose model is not restored yet waits in get_model(), which since ipywidgets 8.1.9
 *    (jupyterlab_widgets 3.0.17, @jupyter-widgets/base-manager 1.0.13; ipywidgets PR #4033) re-checks
 *    every 100 ms for 2 s and then throws without a last check.  WidgetRenderer.renderModel then asks
 *    whether the restore has finished and, if it has, gives up for good.  When the restore finishes
 *    within the last re-check interval (a 100 ms timer fires seconds late on a loaded machine), the
 *    model is there but the page never draws it.  Here, get_model() for a model that is not there
 *    while the restore is unfinished first waits until the model appears or the restore ends.
 *
 * 2. A board that is drawn but never changes (a click's answer from the kernel is dropped).  anywidget
 *    (0.11) holds a model's kernel messages until its module has loaded, and gives up after 2 s:
 *    Runtime.ready is rejected ("[anywidget] Failed to initialize model."), and from then on every
 *    message from the kernel to that model is dropped, even once the module has loaded and the view
 *    is drawn.  Here, a message anywidget dropped that way is handed to the model as ipywidgets would
 *    (our widgets have no model-side initialize(), only the view's render()).
 *
 * After LIMIT_MS without a restore, get_model() behaves as without this plugin.
 */
(function () {
  "use strict";
  var NAME = "caterpillar_learn_voila";
  var LIMIT_MS = 120000;
  var POLL_MS = 50;
  var ANYWIDGET_GAVE_UP = /\[anywidget\] Failed to initialize model/;
  // What the plugin did on this page (tests and diagnosis read it).
  var seen = (window.__caterpillarLearnVoila = { waitedForModel: 0, unfrozenMessages: 0 });

  /** The page's kernel, from Voila's page config: a notebook page has one, the lesson list none. */
  function kernelId() {
    var node = document.getElementById("jupyter-config-data");
    try {
      return (node && JSON.parse(node.textContent || "{}").kernelId) || "";
    } catch (error) {
      return "";
    }
  }

  /** Resolves once `id` is registered, the restore has ended, or LIMIT_MS have passed. */
  function presentOrRestored(manager, id) {
    return new Promise(function (resolve) {
      var poll, limit;
      function done() {
        clearInterval(poll);
        clearTimeout(limit);
        manager.restored.disconnect(done);
        resolve();
      }
      manager.restored.connect(done);
      poll = setInterval(function () {
        if (manager.has_model(id) || manager.restoredStatus) {
          done();
        }
      }, POLL_MS);
      limit = setTimeout(done, LIMIT_MS);
    });
  }

  /** Race 1: get_model() waits out an unfinished restore before its own 2 s of re-checks. */
  function holdGetModel(manager) {
    var getModel = manager.get_model;
    manager.get_model = function (id) {
      var self = this;
      var args = arguments;
      if (self.restoredStatus || self.has_model(id)) {
        return getModel.apply(self, args);
      }
      seen.waitedForModel += 1;
      return presentOrRestored(self, id).then(function () {
        return getModel.apply(self, args);
      });
    };
  }

  /** Race 2: anywidget's AnyModel gets the kernel's messages it would drop after its 2 s. */
  function unfreeze(AnyModel) {
    var proto = AnyModel && AnyModel.prototype;
    if (!proto || proto.__caterpillarLearnUnfrozen) {
      return;
    }
    var own = proto._handle_comm_msg;
    var base = Object.getPrototypeOf(proto)._handle_comm_msg; // ipywidgets' WidgetModel
    if (typeof own !== "function" || typeof base !== "function" || own === base) {
      return;
    }
    proto._handle_comm_msg = function () {
      var self = this;
      var args = arguments;
      return Promise.resolve()
        .then(function () {
          return own.apply(self, args);
        })
        .catch(function (error) {
          if (!ANYWIDGET_GAVE_UP.test(String(error && error.message))) {
            throw error;
          }
          seen.unfrozenMessages += 1;
          return base.apply(self, args);
        });
    };
    proto.__caterpillarLearnUnfrozen = true;
  }

  /** Patch the AnyModel class before the first model is built (its comm binds the handler then). */
  function watchModelClasses(manager) {
    var loadModelClass = manager.loadModelClass;
    manager.loadModelClass = function (className, moduleName) {
      return Promise.resolve(loadModelClass.apply(this, arguments)).then(function (cls) {
        if (moduleName === "anywidget") {
          unfreeze(cls);
        }
        return cls;
      });
    };
  }

  var plugin = {
    id: "caterpillar-learn:widget-races",
    description: "Mend two races that lose a lesson's widget on a slow page (see the file's header).",
    autoStart: true,
    activate: function (app) {
      var delegate = app.widgetManagerPromise; // VoilaApp: resolved as its widget manager is created
      if (!delegate || !delegate.promise || !kernelId()) {
        return; // not Voila, or a page without a kernel (the lesson list)
      }
      // Not awaited: the manager is patched as it is created, before any output renders or any
      // model is built (both wait for the kernel), and the page's start is not held up.
      delegate.promise.then(function (manager) {
        if (!manager || typeof manager.get_model !== "function" || !manager.restored) {
          return;
        }
        holdGetModel(manager);
        if (typeof manager.loadModelClass === "function") {
          watchModelClasses(manager);
        }
      });
    },
  };

  var registry = (window._JUPYTERLAB = window._JUPYTERLAB || {});
  registry[NAME] = {
    init: function () {},
    get: function (module) {
      if (module !== "./extension") {
        return Promise.reject(new Error(NAME + " has no module " + module));
      }
      return Promise.resolve(function () {
        return { __esModule: true, default: [plugin] };
      });
    },
  };
})();
