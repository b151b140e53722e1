#ifndef FAULTLINE_CNGHTTP2_SHIM_H
#define FAULTLINE_CNGHTTP2_SHIM_H
#include <nghttp2/nghttp2.h>
#endif
