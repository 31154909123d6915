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

# %% [markdown] transient={"remove_source": true}
# **For the teacher** (the lesson's web page does not show this note or the code).
# Räuber Raupe 2 teaches to put a caterpillar of the same colour on the leaf.
# Run all cells here in JupyterLab, or serve every lesson to the class with `caterpillar-learn serve`;
# change the settings in the next cell first if you like.

# %% tags=["parameters"]
# What you may change, one setting a line (then run the cells again):
# the shuffle of the cards (and the bots' choices): the same seed deals the whole class the same cards
SEED = 11
# the page's first language: "en", "de" or a language of your own; None: the page's choice or English
LANG = None
# read each new text aloud by itself from the start: True or False; None: the lesson's own choice
VOICE = None
# the strategy line under the calls: True or False; None: the lesson's own choice
HINTS = None
# how well the bots play: "beginner", "advanced" or "expert"; None: the lesson's own choice
LEVEL = None

# %%
# Every word the learner reads is drawn by the table in the page's language, from the catalogue
# caterpillar_learn/i18n/<language>/raupe_lessons.json.
from caterpillar_learn.ui.raupe import RaupeWidget

table = RaupeWidget("11-raupe-colour", seed=SEED, lang=LANG, voice=VOICE, hints=HINTS, level=LEVEL)
table
