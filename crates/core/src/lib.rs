//! planilla-core: the legality core (in progress).
