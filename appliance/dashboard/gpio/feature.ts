/**
 * The GPIO feature: the pins of the box at work (gpio-service.ts, built by services.ts with the
 * printers, the notification center and the queue's plate confirmation) and their routes. It
 * starts after the printers and the queue, whose printers its pin map names.
 */
import type { DashboardFeature } from '../feature.js';
import type { GpioService } from './gpio-service.js';
import { gpioRoutes } from './routes.js';

export const GPIO_FEATURE = 'gpio';

export function createGpioFeature(gpio: GpioService): DashboardFeature {
  return {
    name: GPIO_FEATURE,
    routes: gpioRoutes(gpio),
    start: () => gpio.start(),
    stop: () => gpio.stop(),
    info: () => gpio.info(),
  };
}
