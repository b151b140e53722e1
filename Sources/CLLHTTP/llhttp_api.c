#include "/usr/share/llhttp/api.c"
