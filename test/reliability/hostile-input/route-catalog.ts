/**
 * Every route the gateway serves, read from the Nest controllers' own metadata (path and method decorators), so a new
 * route is probed with wrong methods without being listed here.
 */
import { RequestMethod, type Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';

export interface Route {
  /** Concrete path: `:param` segments filled with `sample`. */
  path: string;
  pattern: string;
  methods: Set<string>;
  controller: string;
  handler: string;
}

const join = (...parts: string[]) => `/${parts.flatMap((p) => p.split('/')).filter(Boolean).join('/')}`;

/** Routes of `controllers`, one per path, with every method declared on it. */
export function routesOf(controllers: readonly Type<unknown>[], sample: (param: string) => string): Route[] {
  const byPath = new Map<string, Route>();
  for (const controller of controllers) {
    const prefix = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
    for (const name of Object.getOwnPropertyNames(controller.prototype)) {
      const handler = (controller.prototype as Record<string, unknown>)[name];
      if (name === 'constructor' || typeof handler !== 'function') continue;
      const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      const paths = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
      if (method === undefined || paths === undefined) continue;
      for (const p of ([] as string[]).concat(paths)) {
        const pattern = join(prefix, p);
        const route = byPath.get(pattern) ?? {
          pattern,
          path: pattern.replace(/:(\w+)/g, (_m, param: string) => sample(param)),
          methods: new Set<string>(),
          controller: controller.name,
          handler: name,
        };
        route.methods.add(RequestMethod[method]);
        byPath.set(pattern, route);
      }
    }
  }
  return [...byPath.values()];
}

/** The method and path of one handler of `controller`. */
export function handlerRoute(controller: Type<unknown>, handler: string, sample: (param: string) => string): { method: string; pattern: string; path: string } {
  const prefix = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
  const fn = (controller.prototype as Record<string, unknown>)[handler] as object;
  const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, fn) as RequestMethod];
  const pattern = join(prefix, String(Reflect.getMetadata(PATH_METADATA, fn)));
  return { method, pattern, path: pattern.replace(/:(\w+)/g, (_m, param: string) => sample(param)) };
}
