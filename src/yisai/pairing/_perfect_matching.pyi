"""Maximum-weight perfect matching of a dense integer matrix (C, Edmonds' blossom method)."""

import numpy as np
import numpy.typing as npt

def perfect_matching(weights: npt.NDArray[np.int64], /) -> list[int]:
    """Each vertex's mate in a maximum-weight perfect matching of the complete graph whose
    weights are the square C-contiguous int64 matrix (the diagonal is ignored). The vertices
    are scanned in index order, so the matrix alone decides among equal maxima."""
