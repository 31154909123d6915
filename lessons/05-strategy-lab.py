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
# Lesson 5: Strategy lab.  Everything the learner reads comes from the message
# catalogue, caterpillar_learn/i18n/, in the language chosen on the page.
# The seed makes the simulated dice the same for the whole class.
SEED = 1
GAMES = 200
LEVEL = "intermediate"

# %%
from caterpillar_learn.ui.lab import LabWidget

lab = LabWidget(LEVEL, games=GAMES, seed=SEED, run=True)
lab
