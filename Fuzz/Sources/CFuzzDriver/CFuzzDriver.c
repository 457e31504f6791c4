// Intentionally empty: CFuzzDriver only exports the declaration in include/CFuzzDriver.h.
