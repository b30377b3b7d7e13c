{
  "targets": [
    {
      "target_name": "stream_decoder",
      "sources": ["src/stream_decoder.cc"],
      "include_dirs": ["<!(node -p \"require('node-addon-api').include_dir\")", "<!@(pkg-config --cflags-only-I pocketsphinx | sed s/-I//g)"],
      "libraries": ["<!@(pkg-config --libs pocketsphinx)"],
      "defines": ["NAPI_VERSION=8", "NODE_ADDON_API_DISABLE_CPP_EXCEPTIONS"],
      "cflags_cc": ["-std=c++17", "-O2"]
    }
  ]
}
