"""Datasets: Fashion-MNIST (Debian package, hash-checked), its committed subset, real photos, detection set."""
from npuready.data.detection import DetectionSet, detection_set
from npuready.data.debian_fashion_mnist import CLASSES, fashion_mnist
from npuready.data.sample_photos import PHOTOS, photo, photos
from npuready.data.subset import fashion_mnist_subset

__all__ = ["CLASSES", "PHOTOS", "DetectionSet", "detection_set", "fashion_mnist", "fashion_mnist_subset",
           "photo", "photos"]
