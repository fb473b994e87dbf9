import { players } from "./index.js";

export function draw(ctx) {
  return { public: players(ctx, { turn: ctx.view.actors || [] }), private: null, handled: new Set() };
}
