"""lanplay: tabletop games at a LAN party. The Qt-free core."""

__version__ = "0.1.0"
