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

# %% [markdown]
# # Lesson 2: Intermediate 🐛🐛
#
# Now you roll **3 dice** and must use all three. Each round, choose:
#
# - **add two dice to make your score** and use the third die as the label,
# - or **add two dice to make the label** and use the third die as your score.
#
# *Example:* you roll 2, 3 and 6. You could score 2 + 3 = 5 in a box labelled
# 6. Or, if a box is labelled 9 (with the setup variation), score 2 there,
# because 3 + 6 = 9.
#
# A quick trick: whichever way you split the dice, your score is the total of
# all three dice minus the label of the box. If no box fits at all, cross out
# any empty box with 0.
#
# The hint helper may need a few seconds for its first hint of a game.

# %% [markdown]
# **How to use the board below**
#
# - Press **Roll** (or the **r** key) to roll the dice.
# - Boxes you may fill have a **dashed orange border and a ★**. Click one (or
#   move to it with **Tab** and the arrow keys and press **Enter**).
# - Click a box *without* a star and the board tells you why it cannot take a
#   score.
# - When one box can be filled in several ways, a small menu lists them:
#   choose one.
# - **Hint** shows the helper's advice: how many points each move is worth on
#   average at the end of the game.
# - Some steps ask a question first ("Tap every box these dice can fill",
#   "Which caterpillar will fly?"): answer, press **Check**, and read why.
#   A wrong answer can be changed and checked again. **Save my answers**
#   keeps a record of them.
# - After a move, **Try another move** shows what another choice that round
#   would have given, side by side with yours.
# - Follow the steps with **Next**. After all 12 rounds you see which
#   caterpillar flies and your final score. **New game** starts another game.

# %% tags=["parameters"]
# The seed: every learner who uses the same seed gets the same dice.
SEED = 2

# %%
from caterpillar_learn.ui.caterpillars import CaterpillarsLesson

lesson = CaterpillarsLesson("02-intermediate", seed=SEED)
lesson

# %% [markdown]
# ## Scoring: the median flies
#
# After 12 rounds every box is full. Add up each caterpillar. The caterpillar
# with the **highest** total and the one with the **lowest** total are
# struck out. The one in the middle (the *median*) flies away as a
# butterfly, and its total is your score.

# %% [markdown]
# ## For the teacher
#
# The labels were filled by the setup rolls (lesson 0 shows how). The guided
# game's dice are chosen so that this level's rules come up (see the lesson
# guide in docs/TEACHERS.md); the seed decides the dice of later games. Below are
# the dice of this lesson for the seed above (the same for the whole class),
# and the final score of a sample game that always takes the first
# highlighted box and the first choice of a box's menu.

# %%
# NBVAL_CHECK_OUTPUT
from caterpillar_learn.lessons.teacher import class_dice

print(class_dice("02-intermediate", seed=SEED))
