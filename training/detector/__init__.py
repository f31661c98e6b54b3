"""Training the die detector (``companion/vision/detector.py``): ``python -m training.detector.train``.

Needs torch (not a runtime dependency); the product runs only the exported ONNX file with ``cv2.dnn``.
"""
