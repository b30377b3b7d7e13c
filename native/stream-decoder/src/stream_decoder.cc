// A streaming speech decoder over libpocketsphinx: one decoder per live stream, fed raw 16 kHz
// s16le audio phrase by phrase. Every call that touches the decoder runs in an AsyncWorker, off the
// event loop; the JavaScript side queues calls so one decoder never runs two at once.
#include <napi.h>
#include <pocketsphinx.h>
#include <cstring>
#include <string>
#include <vector>

namespace {

struct SegWord {
  std::string word;
  int startFrame;
  int endFrame;
  double prob;
};

class Decoder : public Napi::ObjectWrap<Decoder> {
 public:
  static Napi::Object Init(Napi::Env env, Napi::Object exports);
  explicit Decoder(const Napi::CallbackInfo& info);
  ~Decoder() override { Free(); }
  ps_decoder_t* ps = nullptr;
  bool inUtterance = false;
  void Free() {
    if (ps) ps_free(ps);
    ps = nullptr;
  }

 private:
  Napi::Value Start(const Napi::CallbackInfo& info);
  Napi::Value Process(const Napi::CallbackInfo& info);
  Napi::Value End(const Napi::CallbackInfo& info);
  Napi::Value Close(const Napi::CallbackInfo& info);
};

// Loads the model (a few hundred ms) off the event loop; resolves with the decoder.
class InitWorker : public Napi::AsyncWorker {
 public:
  InitWorker(Napi::Env env, std::vector<std::string> argv)
      : Napi::AsyncWorker(env), deferred(Napi::Promise::Deferred::New(env)), argv(std::move(argv)) {}
  Napi::Promise::Deferred deferred;
  ps_decoder_t* ps = nullptr;
  void Execute() override {
    std::vector<char*> args;
    for (auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    cmd_ln_t* config = cmd_ln_parse_r(nullptr, ps_args(), static_cast<int>(args.size()), args.data(), FALSE);
    if (!config) return SetError("the speech model settings were refused");
    ps = ps_init(config);
    cmd_ln_free_r(config);
    if (!ps) SetError("the speech model could not be loaded");
  }
  void OnOK() override;
  void OnError(const Napi::Error& e) override { deferred.Reject(e.Value()); }

 private:
  std::vector<std::string> argv;
};

Napi::FunctionReference* constructor = nullptr;

void InitWorker::OnOK() {
  Napi::Object obj = constructor->New({});
  Decoder::Unwrap(obj)->ps = ps;
  deferred.Resolve(obj);
}

// Feeds audio (and optionally starts or ends the utterance), then reads the hypothesis.
class WorkWorker : public Napi::AsyncWorker {
 public:
  enum Kind { START, PROCESS, END };
  WorkWorker(Napi::Env env, Decoder* d, Napi::Object owner, Kind kind, std::vector<int16_t> samples)
      : Napi::AsyncWorker(env), deferred(Napi::Promise::Deferred::New(env)), decoder(d), kind(kind), samples(std::move(samples)) {
    ownerRef = Napi::Persistent(owner);
  }
  Napi::Promise::Deferred deferred;
  void Execute() override {
    ps_decoder_t* ps = decoder->ps;
    if (!ps) return SetError("the decoder is closed");
    if (kind == START) {
      if (decoder->inUtterance) ps_end_utt(ps);
      if (ps_start_utt(ps) < 0) return SetError("the decoder could not start a phrase");
      decoder->inUtterance = true;
    }
    if (!samples.empty()) {
      if (!decoder->inUtterance) return SetError("audio was fed outside a phrase");
      if (ps_process_raw(ps, samples.data(), samples.size(), FALSE, FALSE) < 0) return SetError("the decoder refused the audio");
    }
    if (kind == END) {
      if (!decoder->inUtterance) return;
      ps_end_utt(ps);
      decoder->inUtterance = false;
      for (ps_seg_t* seg = ps_seg_iter(ps); seg; seg = ps_seg_next(seg)) {
        int sf = 0, ef = 0;
        ps_seg_frames(seg, &sf, &ef);
        int32 ascr, lscr, lback;
        int32 prob = ps_seg_prob(seg, &ascr, &lscr, &lback);
        words.push_back({ps_seg_word(seg), sf, ef, logmath_exp(ps_get_logmath(ps), prob)});
      }
    }
    int32 score = 0;
    const char* h = ps_get_hyp(ps, &score);
    hyp = h ? h : "";
  }
  void OnOK() override {
    Napi::Env env = Env();
    Napi::Object out = Napi::Object::New(env);
    out.Set("hyp", hyp);
    if (kind == END) {
      Napi::Array arr = Napi::Array::New(env, words.size());
      for (size_t i = 0; i < words.size(); i++) {
        Napi::Object w = Napi::Object::New(env);
        w.Set("word", words[i].word);
        w.Set("startFrame", words[i].startFrame);
        w.Set("endFrame", words[i].endFrame);
        w.Set("prob", words[i].prob);
        arr.Set(i, w);
      }
      out.Set("words", arr);
    }
    deferred.Resolve(out);
  }
  void OnError(const Napi::Error& e) override { deferred.Reject(e.Value()); }

 private:
  Napi::ObjectReference ownerRef;  // keeps the decoder alive while the worker runs
  Decoder* decoder;
  Kind kind;
  std::vector<int16_t> samples;
  std::string hyp;
  std::vector<SegWord> words;
};

Napi::Object Decoder::Init(Napi::Env env, Napi::Object exports) {
  Napi::Function fn = DefineClass(env, "Decoder", {
    InstanceMethod("start", &Decoder::Start),
    InstanceMethod("process", &Decoder::Process),
    InstanceMethod("end", &Decoder::End),
    InstanceMethod("close", &Decoder::Close),
  });
  constructor = new Napi::FunctionReference(Napi::Persistent(fn));
  exports.Set("Decoder", fn);
  return exports;
}

Decoder::Decoder(const Napi::CallbackInfo& info) : Napi::ObjectWrap<Decoder>(info) {}

std::vector<int16_t> SamplesOf(const Napi::CallbackInfo& info) {
  if (info.Length() < 1 || !info[0].IsTypedArray()) return {};
  Napi::Int16Array a = info[0].As<Napi::Int16Array>();
  return std::vector<int16_t>(a.Data(), a.Data() + a.ElementLength());
}

Napi::Value Decoder::Start(const Napi::CallbackInfo& info) {
  auto* w = new WorkWorker(info.Env(), this, info.This().As<Napi::Object>(), WorkWorker::START, SamplesOf(info));
  auto p = w->deferred.Promise();
  w->Queue();
  return p;
}

Napi::Value Decoder::Process(const Napi::CallbackInfo& info) {
  auto* w = new WorkWorker(info.Env(), this, info.This().As<Napi::Object>(), WorkWorker::PROCESS, SamplesOf(info));
  auto p = w->deferred.Promise();
  w->Queue();
  return p;
}

Napi::Value Decoder::End(const Napi::CallbackInfo& info) {
  auto* w = new WorkWorker(info.Env(), this, info.This().As<Napi::Object>(), WorkWorker::END, SamplesOf(info));
  auto p = w->deferred.Promise();
  w->Queue();
  return p;
}

// Frees the model; the caller waits for its queued work first.
Napi::Value Decoder::Close(const Napi::CallbackInfo& info) {
  Free();
  return info.Env().Undefined();
}

Napi::Value Load(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 1 || !info[0].IsArray()) {
    Napi::TypeError::New(env, "load(args: string[])").ThrowAsJavaScriptException();
    return env.Undefined();
  }
  Napi::Array a = info[0].As<Napi::Array>();
  std::vector<std::string> argv;
  for (uint32_t i = 0; i < a.Length(); i++) argv.push_back(a.Get(i).ToString().Utf8Value());
  auto* w = new InitWorker(env, std::move(argv));
  auto p = w->deferred.Promise();
  w->Queue();
  return p;
}

}  // namespace

Napi::Object InitAll(Napi::Env env, Napi::Object exports) {
  Decoder::Init(env, exports);
  exports.Set("load", Napi::Function::New(env, Load));
  return exports;
}

NODE_API_MODULE(stream_decoder, InitAll)
