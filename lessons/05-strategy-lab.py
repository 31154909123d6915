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
# Lesson 5 (Strategy lab): the computer plays many games with each way of playing, and the page
# compares their scores (it opens with its run shown).
# Run all cells here in JupyterLab, or serve every lesson to the class with `caterpillar-learn serve`;
# change the settings in the next cell first if you like.

# %% tags=["parameters"]
# What you may change, one setting a line (then run the cells again):
# the dice of the simulated games: the same seed gives the whole class the same results
SEED = 1
# how many games each way of playing plays, from 20 to 2000 (more: steadier numbers, a longer wait)
GAMES = 200
# the level of the game: "beginner", "intermediate", "advanced" or "expert"
LEVEL = "intermediate"
# the page's first language: "en", "de" or a language of your own; None: the page's choice or English
LANG = None
# read each new text aloud by itself from the start: True or False; None: the lab's own choice (off)
VOICE = None

# %%
from caterpillar_learn.ui.lab import LabWidget

lab = LabWidget(LEVEL, games=GAMES, seed=SEED, run=True, lang=LANG, voice=VOICE)
lab
