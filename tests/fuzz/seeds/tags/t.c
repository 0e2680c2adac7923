// c \
"no"
const char *t[] = { "DLH@", R"x(a)x", "a" "b", L"w" };
#include "x.h"
