"""Drawn numeral dice: the top face of a die of the table's own kind, as the reader's 32 px patch."""

import cv2
import numpy as np

from companion.vision.profile_adapt import Profile


def numeral(face: int, rng: np.random.Generator) -> np.ndarray:
    """A 32x32 patch of a numeral die's top face: the digit, turned and lit at random."""
    img = np.full((96, 96, 3), rng.integers(170, 240), np.uint8)
    ink = tuple(int(v) for v in rng.integers(0, 80, 3))
    cv2.putText(img, str(face), (24, 74), cv2.FONT_HERSHEY_DUPLEX, 2.6, ink, 6, cv2.LINE_AA)
    turn = cv2.getRotationMatrix2D((48, 48), float(rng.uniform(0, 360)), float(rng.uniform(0.9, 1.1)))
    img = cv2.warpAffine(img, turn, (96, 96), borderMode=cv2.BORDER_REPLICATE)
    noisy = cv2.resize(img, (32, 32), interpolation=cv2.INTER_AREA) + rng.normal(0, 4, (32, 32, 3))
    return np.clip(noisy, 0, 255).astype(np.uint8)


def numeral_profile(per: int, seed: int = 0) -> Profile:
    """``per`` confirmed dice of each face 1-6, thrown in rounds (the newest round last)."""
    rng = np.random.default_rng(seed)
    profile = Profile()
    for _ in range(per):
        for face in range(1, 7):
            profile.add(numeral(face, rng), face - 1)
    return profile
