#include "/usr/share/llhttp/llhttp.c"
