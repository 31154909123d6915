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
# # Lesson 0: Labels and setup 🐛
#
# Three hungry caterpillars, **Alex** (green), **Bobby** (blue, striped) and
# **Charlie** (purple, dotted), each have **4 boxes**. Every box has a
# **label**: a number that says which dice can feed it.
#
# Six labels are printed on the sheet already (1, 2, 5 or 6). The other six
# show **…** and are still blank. Before the game starts, you roll dice and
# write their values on the blank labels.
#
# **How to use the board below**
#
# 1. Press **Roll** (or the **r** key). Three dice appear.
# 2. Click a die, then click a box with a blank label (…). The die's value
#    becomes that box's label. Boxes you may click have a dashed orange border
#    and a ★.
# 3. After three labels, roll again for the last three.
#
# That is all for this lesson: how to play a round comes in lesson 1.
#
# Use **Next** to go through the steps. You can also use the keyboard: **Tab**
# and the arrow keys move between boxes, **Enter** or **Space** chooses.

# %% tags=["parameters"]
# The seed: every learner who uses the same seed gets the same dice.
SEED = 1

# %%
from caterpillar_learn.ui.caterpillars import CaterpillarsLesson

lesson = CaterpillarsLesson("00-setup", seed=SEED)
lesson

# %% [markdown]
# ## The setup variation
#
# From the Intermediate level on, you may fill the labels another way: roll
# three dice, put **one die** on a blank label and **the sum of the other
# two** on another blank label. A label can then be as high as 12!
#
# Lesson 2 (Intermediate) starts with labels made this way. If you play this
# board to the end, **New game** tries the variation: click the die you want on
# its own, then a blank box; the next blank box you click gets the sum of the
# other two dice.

# %% [markdown]
# ## For the teacher
#
# The dice of this lesson for the seed above (the same for the whole class),
# and, should the class play on after the labels, the final score of a sample
# game that always takes the first highlighted box:

# %%
# NBVAL_CHECK_OUTPUT
from caterpillar_learn.lessons.teacher import class_dice

print(class_dice("00-setup", seed=SEED))
