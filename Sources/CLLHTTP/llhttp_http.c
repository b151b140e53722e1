#include "/usr/share/llhttp/http.c"
