class Circle:
    """A circle of a given radius."""

    def __init__(self, radius: float) -> None:
        self.radius = radius

    def area(self) -> float:
        return 3.14159 * self.radius * self.radius


def total_area(circles: list[Circle]) -> float:
    return sum(c.area() for c in circles)
