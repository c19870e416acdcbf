// The ownership panel of a managed cluster names the add-ons the provider put in kube-system
// (PROVIDER_ADDONS in controlplane/managed.ts, each from the provider's documents) and says who
// keeps them updated, in English and Russian.
import { render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import { managedInfo } from '$lib/sim/controlplane/managed';
import { setLocale } from '$lib/i18n/index.svelte';
import ManagedPanel from './ManagedPanel.svelte';

afterEach(async () => {
  await setLocale('en');
});

describe('ManagedPanel', () => {
  it('lists EKS add-ons and says updating them is yours', () => {
    render(ManagedPanel, { managed: managedInfo('eks', 'v1.35.0') });
    const addons = screen.getByTestId('managed-addons');
    expect(addons.querySelector('h4')?.textContent).toBe('Add-ons Amazon EKS installs in kube-system');
    expect([...addons.querySelectorAll('li')].map((li) => li.textContent)).toEqual([
      'aws-node DaemonSet',
      'kube-proxy DaemonSet',
      'coredns Deployment'
    ]);
    expect(addons.textContent).toContain('keeping them updated is yours');
    const row = screen.getByText('Add-ons: CNI, CoreDNS, kube-proxy versions').closest('tr');
    expect(row?.getAttribute('data-owner')).toBe('you');
  });

  it('AKS manages its add-ons; the job row names the provider (Russian too)', async () => {
    await setLocale('ru');
    render(ManagedPanel, { managed: managedInfo('aks', 'v1.35.0') });
    const addons = screen.getByTestId('managed-addons');
    expect(addons.querySelector('h4')?.textContent).toBe('Дополнения, которые AKS ставит в kube-system');
    expect(addons.querySelectorAll('li')).toHaveLength(6);
    expect(addons.textContent).toContain('AKS управляет ими сам');
    const row = screen.getByText('Дополнения: версии CNI, CoreDNS, kube-proxy').closest('tr');
    expect(row?.getAttribute('data-owner')).toBe('provider');
  });
});
