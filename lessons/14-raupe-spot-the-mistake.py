# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% tags=["parameters"]
# The seed: every learner who uses the same seed gets the same cards.
SEED = 14

# %%
# Every word the learner reads (the intro, "try this", the messages) is drawn by the table in
# the page's language, from the catalogue caterpillar_learn/i18n/<language>/raupe_lessons.json.
from caterpillar_learn.ui.raupe import RaupeWidget

table = RaupeWidget("14-raupe-spot-the-mistake", seed=SEED)
table
