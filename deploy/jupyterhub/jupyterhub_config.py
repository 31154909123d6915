"""A school's JupyterHub with caterpillar-learn: the classroom server as a service, the lessons as every
pupil's page (docs/DEPLOY.md, "A school's JupyterHub").

Run it from a checkout, in the environment where caterpillar-learn is installed with ``[lessons,hub]``
(``pip install '.[lessons,hub]'``, or ``python3 dev.py test`` once for the checkout's ``.venv``):

    jupyterhub -f deploy/jupyterhub/jupyterhub_config.py

What it sets up:

* **The classroom server** (``caterpillar-learn classroom``) as a managed service at
  ``/services/classroom/``: the hub starts it, restarts it if it stops, and tells it its prefix and address.
  Teachers (the hub's admins and the members of the group ``teachers``) open
  ``/services/classroom/teacher`` through the hub's login; pupils open ``/services/classroom/join`` with
  the room's code and need no hub login.  Its rooms are kept in ``CLASSROOM_DATA``.
* **Every user's own server** opens the lesson gallery (``/user/NAME/caterpillar-learn/gallery/lessons``):
  the lessons of ``LESSONS_HOME/lessons`` as cards, each opening in Voila with the lessons' template, the
  front-end extensions a lesson needs and no request to a CDN (the same settings as Binder:
  ``binder/jupyter_server_config.json``).  A teacher's own notebook put into that folder is a card in
  every pupil's gallery the next time the page is opened.
* **A trial on one computer** (``CATERPILLAR_HUB_TRIAL=1``): anyone logs in with any name and the password
  in ``CATERPILLAR_HUB_PASSWORD``, and each user's server is a process of the hub's own user
  (JupyterHub's ``SimpleLocalProcessSpawner``).  A school sets its own authenticator and spawner instead
  (the lines marked "your school's").

Names a school changes are read from the environment, so this file can be used as it is.
"""

# ruff: noqa: F821  (``c`` and ``get_config`` are given by JupyterHub when it reads this file)

import os
import sys
from pathlib import Path

from caterpillar_learn.ui.hosting.jupyter_data import ETC, SHARE

c = get_config()

HERE = Path(__file__).resolve().parent
CHECKOUT = HERE.parents[1]
BIN = Path(sys.executable).parent
#: Where the classroom service listens (only the hub's proxy talks to it).
CLASSROOM_URL = os.environ.get("CLASSROOM_URL", "http://127.0.0.1:10101")
#: Where the classroom keeps its rooms (an SQLite log; back it up, it is the class's work).
CLASSROOM_DATA = os.environ.get("CLASSROOM_DATA", "/srv/caterpillar-learn/classroom")
#: The folder whose ``lessons/`` every pupil's gallery shows (``caterpillar-learn notebooks DIR/lessons``
#: copies the lessons there for an install without a checkout).
LESSONS_HOME = os.environ.get("LESSONS_HOME", str(CHECKOUT))
#: Who is a teacher: these users are put into the hub's group ``teachers`` at every start (the hub's admin
#: page adds more); the hub's admins are teachers too.
TEACHERS = [name for name in os.environ.get("CATERPILLAR_HUB_TEACHERS", "").split(",") if name.strip()]

# --- the classroom server, a managed service -------------------------------------------------------------
c.JupyterHub.services = [
    {
        "name": "classroom",
        "url": CLASSROOM_URL,
        "command": [str(BIN / "caterpillar-learn"), "classroom", "--data", CLASSROOM_DATA],
        "display": True,  # listed on the hub's home page as "classroom"
        "oauth_no_confirm": True,  # a teacher's login goes straight through, with no "authorize" page
    }
]
c.JupyterHub.load_groups = {"teachers": {"users": TEACHERS}}
# Every user may log in to the service; the service opens its console to teachers only and refuses the
# others in one line (a hub without this grant shows its own refusal to everyone who is not an admin).
c.JupyterHub.load_roles = [{"name": "user", "scopes": ["self", "access:services!service=classroom"]}]

# --- every user's server: the lesson gallery --------------------------------------------------------------
c.Spawner.cmd = [str(BIN / "jupyterhub-singleuser")]
c.Spawner.notebook_dir = LESSONS_HOME
c.Spawner.default_url = "/caterpillar-learn/gallery/lessons"
c.Spawner.environment = {
    # The lessons' Voila template and mend (share/jupyter), the gallery's server extension (etc/jupyter)
    # and Binder's settings for lessons without a CDN, also when the package is installed editable.
    "JUPYTER_PATH": str(SHARE),
    "JUPYTER_CONFIG_PATH": os.pathsep.join([str(ETC), str(CHECKOUT / "binder")]),
}

# --- a trial on one computer (your school's authenticator and spawner go here instead) ---------------------
if os.environ.get("CATERPILLAR_HUB_TRIAL") == "1":
    c.JupyterHub.authenticator_class = "dummy"
    c.DummyAuthenticator.password = os.environ["CATERPILLAR_HUB_PASSWORD"]
    c.Authenticator.allow_all = True
    c.JupyterHub.spawner_class = "simple"
    if os.geteuid() == 0:  # a container's root: the users' servers run as the hub's own user
        c.Spawner.args = ["--allow-root"]
    chp = HERE / "node_modules" / ".bin" / "configurable-http-proxy"  # `npm ci` in this folder
    if chp.exists():
        c.ConfigurableHTTPProxy.command = [str(chp)]
