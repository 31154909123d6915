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
# Lesson 1: Beginner.  Everything the learner reads (the steps, questions, hints and the
# notes for grown-ups behind the lesson's "For grown-ups" switch) comes from the
# message catalogue, caterpillar_learn/i18n/, in the language chosen on the page.
# The seed: every learner who uses the same seed gets the same dice.
SEED = 1

# %%
from caterpillar_learn.ui.caterpillars import CaterpillarsLesson

lesson = CaterpillarsLesson("01-beginner", seed=SEED)
lesson
