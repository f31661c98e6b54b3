"""What the phone does to the light after the lens: exposure, the sRGB curve, motion blur from a hand
that moved, sensor noise and JPEG compression."""

from __future__ import annotations

import cv2
import numpy as np


def expose(linear: np.ndarray, mean: float) -> np.ndarray:
    """Linear RGB scaled so that its median brightness lands near ``mean`` after the curve, as auto-
    exposure does; the brightest spots clip, as glare does on a phone."""
    lum = np.nan_to_num(linear).mean(axis=2)
    ref = float(np.percentile(lum, 60)) + 1e-6
    x = np.clip(linear * ((mean**2.2) / ref), 0, 1)
    out: np.ndarray = np.where(x <= 0.0031308, 12.92 * x, 1.055 * np.power(x, 1 / 2.4) - 0.055)
    return out


def motion(img: np.ndarray, length: float, angle: float) -> np.ndarray:
    """A straight streak ``length`` px long at ``angle`` degrees."""
    if length < 1:
        return img
    k = int(np.ceil(length)) * 2 + 1
    ker = np.zeros((k, k), np.float32)
    c = k // 2
    dx, dy = np.cos(np.radians(angle)) * length / 2, np.sin(np.radians(angle)) * length / 2
    cv2.line(ker, (int(round(c - dx)), int(round(c - dy))), (int(round(c + dx)), int(round(c + dy))), 1.0, 1)
    return cv2.filter2D(img, -1, ker / ker.sum())


def finish(rgb: np.ndarray, rng: np.random.Generator, blur: float, noise: float, quality: int) -> bytes:
    """RGB 0-1 to JPEG bytes (BGR order inside OpenCV) with motion blur and shot-like noise."""
    img = motion(rgb.astype(np.float32), blur, float(rng.uniform(0, 180))) * 255.0
    sigma = noise * np.sqrt(np.clip(img, 1, 255) / 128.0)
    img = img + rng.normal(0, 1, img.shape).astype(np.float32) * sigma
    bgr = np.clip(img, 0, 255).astype(np.uint8)[..., ::-1]
    ok, buf = cv2.imencode(".jpg", np.ascontiguousarray(bgr), [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return buf.tobytes()
