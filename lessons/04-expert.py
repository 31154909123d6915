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
# Lesson 4 (Expert) teaches the action die: A, B, C, double, 10 and the butterfly.
# Run all cells here in JupyterLab, or serve every lesson to the class with `caterpillar-learn serve`;
# change the settings in the next cell first if you like.

# %% tags=["parameters"]
# What you may change, one setting a line (then run the cells again):
# the dice of every new game after the guided one (the guided game's dice are the lesson's own,
# the same for everyone whatever the seed); the same seed gives the whole class the same dice
SEED = 4
# the page's first language: "en", "de" or a language of your own; None: the page's choice or English
LANG = None
# read each new text aloud by itself from the start: True or False; None: the lesson's own choice
VOICE = None

# %%
from caterpillar_learn.ui.caterpillars import CaterpillarsLesson

lesson = CaterpillarsLesson("04-expert", seed=SEED, lang=LANG, voice=VOICE)
lesson
