import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCALES, locale, mergeCatalogs, negotiateLocale, setLocale, t } from './index.svelte';

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
