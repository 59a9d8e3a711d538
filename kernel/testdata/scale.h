#ifndef SCALE
#define SCALE 1.0f
#endif
