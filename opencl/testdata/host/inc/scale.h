// An include file found through -I.
#define SCALE 3
