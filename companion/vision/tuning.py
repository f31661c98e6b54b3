"""The dice reader's tuned numbers, in one place: each says what it decides and, where it was
measured, on what (``docs/log/``). The reader's stages read them from here when they run, so a
benchmark or a test that tries another value (``benchmarks/vision_speed.py --compare NAME=A,B``,
``training/experiments/vision_same_readings.py --set NAME=VALUE``) sets it on this module."""

from __future__ import annotations

import numpy as np

# Below UNCERTAIN a die is reported but confirmed on the tablet with one tap. Issue 31 allows 1% wrong
# among the answered dice. At 0.9, the dev photos had 1.70% (nell-byler-d6) and 1.27% (rune55), and a
# tray neither model saw 2.89%; at 0.97, 0.00%, 0.66% and 0.84%, for 2.5 points more dice asked about on
# the dev photos (docs/log/answer-threshold-2026-11-28.md).
UNCERTAIN = 0.97
# A die found only with the detector's help is witnessed by a reading at least this sure
# (``_witnessed``): the bar finding was tuned with, kept apart from when the tablet asks.
SURE_READING = 0.9
MAYBE_DIE = 0.15  # windows at least this die-like are refined before deciding
DIE_SCORE = 0.5  # a window is a die when the classifier gives "not a die" less than this
REFINE = 0.9  # windows whose best face is less likely than this are tried shifted and scaled
MAX_LOST = 2  # windows searched around per frame, at most, the likeliest first (time)
# With the detector one is enough: a second read none of the dev photos differently (docs/log/speed-2026-11-27.md).
MAX_LOST_WITH_DETECTOR = 1
# With the detector, a lost window is searched around only near a detection at least this likely that
# no die explains: the nell-byler-d6 tray's two corner screws (detections 0.17-0.33) cost nine windows
# a frame for nothing, and no dev reading changed (docs/log/reader-2026-11-28.md).
SEARCH_NEAR_DETECTION = 0.35
FOUND_SCORE = 0.9  # a die found by that search must be this surely a die (it was missed once already)
RECENTRE_STEPS = 2  # times a window is moved onto the top face the network points at
NOT_NEAR = 0.9  # windows at least this surely "not a die" (no die near) are not moved
RESIZE_BELOW = 0.75  # dice the network sees this much smaller than segmentation's guess: propose again
RESIZE_ABOVE = 1.5  # ... or this much larger (windows on the pips of large dice)
RESIZE_STEPS = 3  # the network sees at most about twice its window, so large dice take a few steps
SETTLED = 0.06  # a window whose top face is off-centre by less than this (window sides) stays
SCALE_SETTLED = 0.1  # ... and whose size is within this (log) of the right one
WINDOW = 1.15  # window side / die side: the margin that centred training windows had
USE_DETECTOR = True  # the daemon's reader uses the learned detector (docs/vision.md, "The die detector")
DETECT_WINDOW = 1.1  # classifier window side / the detector's die box side
DOUBT = 0.1  # detections at least this likely are classified; kept if the empty tray shows them
HINT_RANGE = (0.5, 2.0)  # segmentation's die size this far from the detector's is taken as wrong
SURE_DETECTION = 0.5  # a die without a pip count or a sure reading needs a detection this likely
# ... or the classifier this sure that its window holds a die (whatever face), with a detection at
# least at the detector's threshold: the close-ups' large dice, whose pips the counter cannot count and
# whose faces it reads unsurely (docs/log/close-up-witness-2026-11-28.md).
SURE_DIE = 0.95
# A die read under UNCERTAIN is read again in TURNS quarter turns of its window, the network's
# probabilities averaged: on a tray neither model saw, 13-19 more dice of 1,147 read right. Only the
# face may change; its confidence stays, so what is answered, and what the witness rule and the count
# see, is as before (docs/log/second-look-2026-11-28.md). 1: no second look.
TURNS = 4
# A reading told how many dice were rolled (``expected``) that found fewer takes the likeliest other
# windows it looked at, where the detector's score plus the classifier's die score is at least
# FILL_EVIDENCE. They are read as unsure dice, so the tablet shows them for a check. On a table the
# models never saw, the classifier takes some dice for no die at all: a detector and classifier
# trained without nell-byler-d6 then found 1,106 -> 1,122 of its 1,147 train dice, extra dice 5 -> 5
# (docs/log/count-fill-2026-11-28.md). None: a short reading stays short.
FILL_EVIDENCE: float | None = 0.3
FILLED = 0.5  # the highest confidence such a die is given: it is there because the count says so
VOUCH = 0.6  # a detection the classifier takes for no die is kept only when the detector is this sure
# Segmentation's windows within NEAR_DETECTION window (or detection) sides of a detection (from ``DOUBT``)
# are all classified. On a tray the detector knows, the rest are its rim, screws and clutter (18 windows a
# busy nell-byler-d6 frame, most of the reading time); on a tray it never saw, they also hold the dice it
# only doubts, far under ``DOUBT`` (docs/log/unseen-tray-2026-11-28.md). So they are searched in the order
# of the detector's heat on them, FAR_BATCH at a time, until FAR_PATIENCE batches in a row hold nothing
# the classifier takes for a die: on a known tray that is usually the first two. On a tray the detector
# never saw, its heat ranks the tray's printed rim above some dice: one empty batch stopped the search
# short of them (docs/log/far-search-2026-11-28.md).
NEAR_DETECTION = 1.0
FAR_BATCH = 2
FAR_PATIENCE = 2
SEARCH_DETECTIONS = False  # detections that led to no die are searched around too (slower, no better on dev)
VOUCHED = 0.1  # a place the empty tray shows (no detector) is a die when the classifier gives it this much
SIZE_RANGE = (0.6, 1.8)  # dice windows outside this range times the frame's median are not dice
# How the classical pip counter errs, where it gives a count at all: rows the true face (1-6), columns
# its count (1-6), counted on the reader's own windows in the train photos of both dev sets, read once
# by the shipped model and once by a model that never saw the set (trained without it), so that both
# familiar and unfamiliar dice count (docs/vision.md). It misses pips far more often than it invents
# them: a 6 counted as a 4 is its commonest error on unfamiliar dice, whose windows the network sizes
# too tight, so that a pair of pips falls outside the counter's disc.
PIP_COUNTS = np.array([[448, 59, 10, 9, 1, 3], [28, 538, 15, 6, 0, 1], [15, 44, 458, 22, 4, 1],
                       [11, 53, 7, 468, 7, 11], [10, 38, 23, 16, 454, 15], [13, 16, 15, 79, 21, 447]])
# The counts are hundreds of dice a face, but of two sets only: dice of another set fool the counter
# in their own ways. So each face's row weighs as much as this many dice, beside one of each count.
PIP_WEIGHT = 30.0
PIP_ON_SYMBOL = 0.05  # a symbol face read as some number of pips (rendered worms: 10 of 99, mostly 1s)
