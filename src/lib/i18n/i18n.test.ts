import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BUNDLED_NAMESPACES,
  LOCALES,
  createTranslator,
  locale,
  mergeCatalogs,
  negotiateLocale,
  setLocale,
  t,
  type Catalog
} from './index.svelte';

const localesDir = join(import.meta.dirname, 'locales');

function keys(node: unknown, prefix = ''): string[] {
  if (typeof node !== 'object' || node === null) return [prefix];
  return Object.entries(node).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

// Languages have different plural categories (en: one/other, ru: one/few/many/other).
const withoutPlural = (key: string) => key.replace(/_(zero|one|two|few|many|other)$/, '');

describe('i18n', () => {
  it('translates in English by default and in Russian after setLocale', async () => {
    expect(locale()).toBe('en');
    expect(t('nav.roadmap')).toBe('Roadmap');
    await setLocale('ru');
    expect(locale()).toBe('ru');
    expect(t('nav.roadmap')).toBe('Дорожная карта');
    expect(t('settings.title')).toBe('Настройки');
    await setLocale('en');
    expect(t('settings.title')).toBe('Settings');
  });

  it('uses Russian plural forms one, few and many', async () => {
    await setLocale('ru');
    expect(t('common.corruptData', { count: 1 })).toBe(
      '1 сохранённую запись не удалось прочитать, она пропущена.'
    );
    expect(t('common.corruptData', { count: 3 })).toBe(
      '3 сохранённые записи не удалось прочитать, они пропущены.'
    );
    expect(t('common.corruptData', { count: 11 })).toBe(
      '11 сохранённых записей не удалось прочитать, они пропущены.'
    );
    await setLocale('en');
    expect(t('common.corruptData', { count: 2 })).toBe('2 saved records could not be read and were skipped.');
  });

  it('gives each set of options its own text when a translation is asked for again (the memo)', async () => {
    expect(t('lab.map.selectPod', { name: 'web-a' })).toBe('Select pod web-a');
    expect(t('lab.map.selectPod', { name: 'web-b' })).toBe('Select pod web-b');
    expect(t('lab.map.selectPod', { name: 'web-a' })).toBe('Select pod web-a');
    // A number and a string of the same digits are different options (i18next pluralizes only numbers).
    expect(t('lab.map.selectPod', { name: 2 } as never)).toBe('Select pod 2');
    expect(t('lab.map.selectPod', { name: '2' })).toBe('Select pod 2');
    expect(t('common.corruptData', { count: 1 })).not.toBe(t('common.corruptData', { count: 2 }));
    expect(t('common.corruptData', { count: 2 })).toBe('2 saved records could not be read and were skipped.');
    await setLocale('ru');
    expect(t('lab.map.selectPod', { name: 'web-a' })).toBe('Выбрать Pod web-a');
    await setLocale('en');
    expect(t('lab.map.selectPod', { name: 'web-a' })).toBe('Select pod web-a');
  });

  it('mounts area catalogs under their area name and common at the root', () => {
    const tree = mergeCatalogs({
      './locales/en/common.json': { nav: { roadmap: 'Roadmap' } },
      './locales/en/lab.json': { play: 'Play' }
    });
    expect(tree).toEqual({ nav: { roadmap: 'Roadmap' }, lab: { play: 'Play' } });
  });

  it('negotiates the browser language', () => {
    expect(negotiateLocale(['ru-RU', 'en-US'])).toBe('ru');
    expect(negotiateLocale(['de-DE', 'en-GB'])).toBe('en');
    expect(negotiateLocale(['fr'])).toBe('en');
  });

  it('has the same keys in every language for every area', () => {
    const areas = readdirSync(join(localesDir, 'en'));
    for (const lang of LOCALES) expect(readdirSync(join(localesDir, lang)).sort()).toEqual(areas.sort());
    for (const area of areas) {
      const byLang = LOCALES.map(
        (lang) =>
          new Set(keys(JSON.parse(readFileSync(join(localesDir, lang, area), 'utf8'))).map(withoutPlural))
      );
      for (const set of byLang.slice(1)) expect([...set].sort(), area).toEqual([...byLang[0]].sort());
    }
  });
});

describe('plurals and units of the control-plane view', () => {
  it('says 1 core and 1 kube-apiserver instance in English, and the right Russian forms', async () => {
    await setLocale('en');
    expect(t('ops.cp.actions.sizeDown', { cores: 1 })).toBe('Size down to 1 core');
    expect(t('ops.cp.actions.sizeUp', { cores: 4 })).toBe('Size up to 4 cores');
    expect(t('ops.cp.topology.stacked', { servers: 1, members: 1 })).toBe(
      'Stacked etcd: 1 kube-apiserver instance behind the load balancer, 1 etcd member on the control-plane nodes.'
    );
    expect(t('ops.cp.sizing.current', { servers: 3, cores: 1 })).toBe(
      '3 running kube-apiserver instances, 1 core per control-plane machine.'
    );
    expect(t('ops.cp.chart.sizing', { servers: 3, cores: 2 })).toBe('3 × 2 cores');
    await setLocale('ru');
    expect(t('ops.cp.actions.sizeDown', { cores: 1 })).toBe('Уменьшить до 1 ядра');
    expect(t('ops.cp.actions.sizeUp', { cores: 4 })).toBe('Увеличить до 4 ядер');
    expect(t('ops.cp.chart.sizing', { servers: 3, cores: 1 })).toBe('3 × 1 ядро');
    expect(t('ops.cp.chart.sizing', { servers: 3, cores: 2 })).toBe('3 × 2 ядра');
    expect(t('ops.cp.chart.sizing', { servers: 3, cores: 8 })).toBe('3 × 8 ядер');
    await setLocale('en');
  });
});

/** Catalog sources that count their loads and, when `gate` is given, wait for it to open. */
function sources(files: Record<string, Catalog>, gate?: Promise<void>) {
  const loads: string[] = [];
  const lazy = Object.fromEntries(
    Object.entries(files).map(([path, catalog]) => [
      path,
      async () => {
        loads.push(path);
        await gate;
        return catalog;
      }
    ])
  );
  return { loads, lazy };
}

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

const bundledCommon = {
  './locales/en/common.json': { nav: { roadmap: 'Roadmap' } }
};
const lazyFiles = {
  './locales/en/lab.json': { play: 'Play', pods_one: '{{count}} pod', pods_other: '{{count}} pods' },
  './locales/en/ops.json': { title: 'Operations' },
  './locales/ru/common.json': { nav: { roadmap: 'Дорожная карта' } },
  './locales/ru/lab.json': {
    play: 'Пуск',
    pods_one: '{{count}} Pod',
    pods_few: '{{count}} Pod’а',
    pods_many: '{{count}} Pod’ов',
    pods_other: '{{count}} Pod’а'
  },
  './locales/ru/ops.json': { title: 'Эксплуатация' }
};

describe('catalogs per area, loaded when a page asks for them', () => {
  it('loads a missing area once, then translates from it', async () => {
    const { loads, lazy } = sources(lazyFiles);
    const tr = createTranslator(bundledCommon, lazy);
    expect(tr.t('nav.roadmap')).toBe('Roadmap');
    expect(tr.hasNamespace('lab')).toBe(false);
    // Not loaded yet: i18next gives the key back (what a page must never render).
    expect(tr.t('lab.play')).toBe('lab.play');
    await tr.ensureNamespaces(['lab']);
    expect(tr.hasNamespace('lab')).toBe(true);
    // The memo did not keep the key it gave before the catalog came.
    expect(tr.t('lab.play')).toBe('Play');
    expect(tr.t('lab.pods', { count: 2 })).toBe('2 pods');
    await tr.ensureNamespaces(['lab']);
    await tr.ensureNamespaces(['lab', 'common']);
    expect(loads).toEqual(['./locales/en/lab.json']);
    expect(tr.hasNamespace('ops')).toBe(false);
  });

  it('gives callers asking at the same time one shared load', async () => {
    const g = gate();
    const { loads, lazy } = sources(lazyFiles, g.opened);
    const tr = createTranslator(bundledCommon, lazy);
    const first = tr.ensureNamespaces(['lab']);
    const second = tr.ensureNamespaces(['lab', 'ops']);
    const third = tr.ensureNamespaces(['ops']);
    await Promise.resolve();
    expect(tr.hasNamespace('lab')).toBe(false);
    g.open();
    await Promise.all([first, second, third]);
    expect(loads.sort()).toEqual(['./locales/en/lab.json', './locales/en/ops.json']);
    expect(tr.t('ops.title')).toBe('Operations');
  });

  it('refuses an area that has no catalog, naming it and the areas there are', async () => {
    const { loads, lazy } = sources(lazyFiles);
    const tr = createTranslator(bundledCommon, lazy);
    await expect(tr.ensureNamespaces(['lab', 'labs'])).rejects.toThrow(
      'unknown UI catalog "labs": there is no locales/<lang>/<area>.json for it (the areas are common, lab, ops)'
    );
    // Nothing was loaded for the good name in a refused list either.
    expect(loads).toEqual([]);
    expect(tr.namespaces()).toEqual(['common', 'lab', 'ops']);
  });

  it('tries again after a load fails (offline without the service worker)', async () => {
    let fail = true;
    let calls = 0;
    const tr = createTranslator(bundledCommon, {
      './locales/en/lab.json': async () => {
        calls++;
        if (fail) throw new TypeError('Failed to fetch dynamically imported module');
        return { play: 'Play' };
      }
    });
    await expect(tr.ensureNamespaces(['lab'])).rejects.toThrow('Failed to fetch');
    expect(tr.t('lab.play')).toBe('lab.play');
    fail = false;
    await tr.ensureNamespaces(['lab']);
    expect(calls).toBe(2);
    expect(tr.t('lab.play')).toBe('Play');
  });

  it('switches language with the areas asked for so far, and loads later areas in both', async () => {
    const { loads, lazy } = sources(lazyFiles);
    const tr = createTranslator(bundledCommon, lazy);
    await tr.ensureNamespaces(['lab']);
    await tr.setLocale('ru');
    expect(tr.locale()).toBe('ru');
    expect(tr.t('nav.roadmap')).toBe('Дорожная карта');
    expect(tr.t('lab.play')).toBe('Пуск');
    expect(tr.t('lab.pods', { count: 5 })).toBe('5 Pod’ов');
    // ops was never asked for, in neither language.
    expect(loads.sort()).toEqual([
      './locales/en/lab.json',
      './locales/ru/common.json',
      './locales/ru/lab.json'
    ]);
    await tr.ensureNamespaces(['ops']);
    expect(tr.t('ops.title')).toBe('Эксплуатация');
    expect(tr.hasNamespace('ops', 'en')).toBe(true);
    await tr.setLocale('en');
    expect(tr.t('ops.title')).toBe('Operations');
    expect(loads).toHaveLength(5);
  });

  it('loads an area asked for during a language switch in the new language before switching', async () => {
    const g = gate();
    const { lazy } = sources(lazyFiles, g.opened);
    const tr = createTranslator(bundledCommon, lazy);
    const switching = tr.setLocale('ru');
    const page = tr.ensureNamespaces(['lab']);
    g.open();
    await Promise.all([switching, page]);
    expect(tr.locale()).toBe('ru');
    expect(tr.hasNamespace('lab', 'ru')).toBe(true);
    expect(tr.t('lab.play')).toBe('Пуск');
  });

  it('keeps the last language chosen when an earlier choice is still loading', async () => {
    const g = gate();
    const { lazy } = sources(lazyFiles, g.opened);
    const tr = createTranslator(bundledCommon, lazy);
    const ru = tr.setLocale('ru');
    const en = tr.setLocale('en');
    g.open();
    await Promise.all([ru, en]);
    expect(tr.locale()).toBe('en');
    expect(tr.t('nav.roadmap')).toBe('Roadmap');
  });

  it('bundles the areas it names as bundled, in both glob patterns', () => {
    const source = readFileSync(join(import.meta.dirname, 'index.svelte.ts'), 'utf8');
    const patterns = [...source.matchAll(/locales\/en\/\{([a-z,]+)\}\.json/g)].map((m) => m[1]);
    expect(patterns).toEqual([BUNDLED_NAMESPACES.join(','), BUNDLED_NAMESPACES.join(',')]);
    const areas = readdirSync(join(localesDir, 'en')).map((f) => f.replace(/\.json$/, ''));
    for (const area of BUNDLED_NAMESPACES) expect(areas).toContain(area);
  });
});
